package dev.pastebin.faults;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/** One request that reached the proxy, body read: what the faults and the operation names are decided on. */
record Request(String method, String path, String rawQuery, Map<String, String> headers, byte[] body) {

    private static final Pattern DELETED_KEY = Pattern.compile("<Key>(.*?)</Key>");

    /** The request of {@code exchange}, its body read and its headers' names in lower case (first value each). */
    static Request read(HttpExchange exchange) throws IOException {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readAllBytes();
        }
        Map<String, String> headers = new HashMap<>();
        exchange.getRequestHeaders()
                .forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values.getFirst()));
        return new Request(
                exchange.getRequestMethod(),
                exchange.getRequestURI().getRawPath(),
                exchange.getRequestURI().getRawQuery(),
                headers,
                body);
    }

    /** An object's name: its key's last segment (the project's short code). */
    static String objectName(String key) {
        return key.substring(key.lastIndexOf('/') + 1);
    }

    /** The object key of a path-style S3 request ({@code /bucket/key}), or empty for the service or a bucket. */
    Optional<String> objectPath() {
        String trimmed = path.startsWith("/") ? path.substring(1) : path;
        int slash = trimmed.indexOf('/');
        return slash > 0 && slash < trimmed.length() - 1 ? Optional.of(trimmed) : Optional.empty();
    }

    boolean isObjectPut() {
        return "PUT".equals(method) && objectPath().isPresent();
    }

    boolean isGet() {
        return "GET".equals(method);
    }

    boolean isHead() {
        return "HEAD".equals(method);
    }

    /** S3's DeleteObjects: {@code POST /bucket?delete}. */
    boolean isDeleteObjects() {
        return "POST".equals(method) && queryParameters().containsKey("delete");
    }

    /** The keys a DeleteObjects request names, in order. */
    List<String> deletedKeys() {
        var keys = new ArrayList<String>();
        var m = DELETED_KEY.matcher(new String(body, StandardCharsets.UTF_8));
        while (m.find()) {
            keys.add(m.group(1));
        }
        return keys;
    }

    /** The query's parameters in order; one given without {@code =} (an S3 subresource) has the value null. */
    Map<String, String> queryParameters() {
        return parameters(rawQuery);
    }

    /** A header by its lower-case name. */
    Optional<String> header(String lowerCaseName) {
        return Optional.ofNullable(headers.get(lowerCaseName));
    }

    static Map<String, String> parameters(String encoded) {
        Map<String, String> parameters = new LinkedHashMap<>();
        if (encoded == null || encoded.isEmpty()) {
            return parameters;
        }
        Arrays.stream(encoded.split("&")).filter(p -> !p.isEmpty()).forEach(pair -> {
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            parameters.putIfAbsent(
                    name, eq < 0 ? null : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        });
        return parameters;
    }
}
