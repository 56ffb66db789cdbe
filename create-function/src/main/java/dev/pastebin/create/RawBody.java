package dev.pastebin.create;

/** A request's body bytes as they arrived, none for an empty body ({@link RawBodyBinder}). */
record RawBody(byte[] bytes) {}
