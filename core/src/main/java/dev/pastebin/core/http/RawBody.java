package dev.pastebin.core.http;

/** A request's body bytes as they arrived, none for an empty body ({@link RawBodyBinder}). */
public record RawBody(byte[] bytes) {}
