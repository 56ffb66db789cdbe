package dev.pastebin.create;

import io.micronaut.core.annotation.Nullable;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code Content-Disposition} of a {@code multipart/form-data} part (RFC 7578, section 4.2): the field's name
 * and the file name a file part declares. Parameters are tokens or quoted strings with backslash escapes (curl
 * escapes a quote in a file name as \"), in any order, the first of a name winning. Read in one pass over the
 * characters, not by a backtracking regex: a value of any length or any number of escapes costs its length.
 */
record FormDataDisposition(String name, @Nullable String fileName) {

    private static final String HEADER = "content-disposition:";

    /**
     * The disposition among a part's header lines; empty when the part has none, or one that is not form-data
     * with a name. A parameter that cannot be read ends the parameters (a file name whose quote is never closed
     * is no file name).
     */
    static Optional<FormDataDisposition> in(String headerLines) {
        for (String line : headerLines.split("\r\n")) {
            if (line.regionMatches(true, 0, HEADER, 0, HEADER.length())) {
                return parse(new Cursor(line, HEADER.length()));
            }
        }
        return Optional.empty();
    }

    private static Optional<FormDataDisposition> parse(Cursor value) {
        if (!value.token().equalsIgnoreCase("form-data")) {
            return Optional.empty();
        }
        Map<String, String> parameters = new HashMap<>();
        while (value.skip(';')) {
            String name = value.token().toLowerCase(Locale.ROOT);
            String parameter = value.skip('=') ? value.tokenOrQuotedString() : null;
            if (parameter == null) {
                break;
            }
            parameters.putIfAbsent(name, parameter);
        }
        String name = parameters.get("name");
        return name == null ? Optional.empty() : Optional.of(new FormDataDisposition(name, parameters.get("filename")));
    }

    /** A position in a header value. */
    private static final class Cursor {

        private final String text;
        private int at;

        Cursor(String text, int at) {
            this.text = text;
            this.at = at;
        }

        /** Whether {@code c} comes next (after any spaces), stepping over it if so. */
        boolean skip(char c) {
            skipSpaces();
            if (at < text.length() && text.charAt(at) == c) {
                at++;
                return true;
            }
            return false;
        }

        String token() {
            skipSpaces();
            int start = at;
            while (at < text.length() && ";=\" \t".indexOf(text.charAt(at)) < 0) {
                at++;
            }
            return text.substring(start, at);
        }

        /** A token, or a quoted string without its quotes and escapes; null for a quoted string never closed. */
        @Nullable
        String tokenOrQuotedString() {
            if (!skip('"')) {
                return token();
            }
            StringBuilder value = new StringBuilder();
            while (at < text.length()) {
                char c = text.charAt(at++);
                if (c == '"') {
                    return value.toString();
                }
                if (c == '\\' && at < text.length()) {
                    c = text.charAt(at++);
                }
                value.append(c);
            }
            return null;
        }

        private void skipSpaces() {
            while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\t')) {
                at++;
            }
        }
    }
}
