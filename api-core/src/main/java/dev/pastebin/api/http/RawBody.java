package dev.pastebin.api.http;

/** A request's body bytes as they arrived, none for an empty body ({@link RawBodyBinder}). */
public record RawBody(byte[] bytes) {}
