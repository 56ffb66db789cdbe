package dev.pastebin.infra.local;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, for requests no well-behaved client sends: a lying Content-Length, broken
 * chunked framing, malformed headers. The request is written as given (its last header should be
 * {@code Connection: close}); the response is read until the server closes the connection, and only the first
 * response in it is parsed.
 */
final class RawHttp {

    record Response(int status, Map<String, String> headers, byte[] body) {

        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private RawHttp() {}

    /**
     * Sends {@code request} and, when {@code halfClose}, shuts the socket's output down afterwards (so a server
     * waiting for more body bytes than were sent sees end of stream instead of waiting for them).
     */
    static Response exchange(int port, byte[] request, boolean halfClose) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(60_000);
            socket.getOutputStream().write(request);
            socket.getOutputStream().flush();
            if (halfClose) {
                socket.shutdownOutput();
            }
            return parse(readUntilClosed(socket.getInputStream()));
        }
    }

    private static byte[] readUntilClosed(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) != -1; ) {
                all.write(buffer, 0, n);
            }
        } catch (java.net.SocketException reset) {
            // a server that answers and then resets the connection (unread request bytes): keep what arrived
        }
        return all.toByteArray();
    }

    static Response parse(byte[] raw) {
        int headerEnd = indexOf(raw, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 0);
        if (headerEnd < 0) {
            throw new IllegalStateException(
                    "no complete HTTP response: " + new String(raw, StandardCharsets.ISO_8859_1));
        }
        String[] lines = new String(raw, 0, headerEnd, StandardCharsets.ISO_8859_1).split("\r\n");
        String[] statusLine = lines[0].split(" ", 3);
        int status = Integer.parseInt(statusLine[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.merge(
                    lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    lines[i].substring(colon + 1).trim(),
                    (a, b) -> a + "," + b);
        }
        int bodyStart = headerEnd + 4;
        byte[] body;
        if (headers.containsKey("content-length")) {
            int length = Integer.parseInt(headers.get("content-length"));
            body = java.util.Arrays.copyOfRange(raw, bodyStart, Math.min(raw.length, bodyStart + length));
        } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = dechunk(raw, bodyStart);
        } else {
            body = new byte[0];
        }
        return new Response(status, headers, body);
    }

    private static byte[] dechunk(byte[] raw, int from) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int at = from;
        while (true) {
            int lineEnd = indexOf(raw, "\r\n".getBytes(StandardCharsets.US_ASCII), at);
            int size = Integer.parseInt(
                    new String(raw, at, lineEnd - at, StandardCharsets.US_ASCII).split(";")[0].trim(), 16);
            if (size == 0) {
                return out.toByteArray();
            }
            out.write(raw, lineEnd + 2, size);
            at = lineEnd + 2 + size + 2;
        }
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = from; i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }
}
