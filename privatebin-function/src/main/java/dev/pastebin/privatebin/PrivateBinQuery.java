package dev.pastebin.privatebin;

import io.micronaut.core.annotation.Nullable;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * What a GET of the PrivateBin URL asks, from its raw query string, as PrivateBin's {@code Request} reads it:
 * {@code ?jsonld=paste} the JSON-LD context; {@code ?pasteid=<id>&deletetoken=<token>} a delete (the link clients
 * print); {@code ?pasteid=<id>} or a bare {@code ?<id>} (the paste's link) a read; nothing, the page.
 */
sealed interface PrivateBinQuery {

    record JsonLd(String type) implements PrivateBinQuery {}

    record Delete(String pasteId, String deleteToken) implements PrivateBinQuery {}

    record Read(String pasteId) implements PrivateBinQuery {}

    record Page() implements PrivateBinQuery {}

    /**
     * @param isId whether a bare key is a paste id (PrivateBin takes the first key without a value that is one)
     */
    static PrivateBinQuery of(@Nullable String rawQuery, Predicate<String> isId) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return new Page();
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        String bareId = null;
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name = decode(equals < 0 ? pair : pair.substring(0, equals));
            String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
            parameters.putIfAbsent(name, value);
            if (bareId == null && value.isEmpty() && isId.test(name)) {
                bareId = name;
            }
        }
        String pasteId = parameters.get("pasteid");
        String jsonld = parameters.get("jsonld");
        if (pasteId == null && jsonld == null && !parameters.containsKey("link")) {
            if (bareId == null) {
                // PrivateBin reads a query naming no id as a read of an invalid one
                return new Read("");
            }
            pasteId = bareId;
        }
        if (pasteId != null && !pasteId.isEmpty()) {
            String token = parameters.get("deletetoken");
            return token != null && !token.isEmpty() ? new Delete(pasteId, token) : new Read(pasteId);
        }
        if (jsonld != null && !jsonld.isEmpty()) {
            return new JsonLd(jsonld);
        }
        return new Page();
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            // a broken escape names nothing this protocol knows
            return "";
        }
    }
}
