package dev.pastebin.benchmarks.baseline;

/**
 * The little JSON a framework-free function needs: quoting strings, and reading one top-level string
 * field of a request body. Throws {@link IllegalArgumentException} for anything that is not JSON.
 */
final class Json {

    private Json() {}

    static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 16).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    /** The string value of {@code field} in a top-level JSON object, or null when absent or not a string. */
    static String stringField(String json, String field) {
        Parser p = new Parser(json);
        p.ws();
        p.expect('{');
        p.ws();
        String found = null;
        if (p.peek() == '}') {
            p.pos++;
        } else {
            while (true) {
                p.ws();
                String key = p.string();
                p.ws();
                p.expect(':');
                p.ws();
                if (p.peek() == '"') {
                    String value = p.string();
                    if (key.equals(field)) {
                        found = value;
                    }
                } else {
                    p.skipValue();
                }
                p.ws();
                char c = p.next();
                if (c == '}') {
                    break;
                }
                if (c != ',') {
                    throw new IllegalArgumentException("expected , or } at " + (p.pos - 1));
                }
            }
        }
        p.ws();
        if (p.pos != json.length()) {
            throw new IllegalArgumentException("trailing characters after the JSON object");
        }
        return found;
    }

    private static final class Parser {
        final String s;
        int pos;

        Parser(String s) {
            this.s = s;
        }

        char peek() {
            if (pos >= s.length()) {
                throw new IllegalArgumentException("unexpected end of JSON");
            }
            return s.charAt(pos);
        }

        char next() {
            char c = peek();
            pos++;
            return c;
        }

        void expect(char c) {
            if (next() != c) {
                throw new IllegalArgumentException("expected " + c + " at " + (pos - 1));
            }
        }

        void ws() {
            while (pos < s.length() && " \t\r\n".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
        }

        String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                char c = next();
                if (c == '"') {
                    return out.toString();
                }
                if (c < 0x20) {
                    throw new IllegalArgumentException("control character in string");
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char e = next();
                switch (e) {
                    case '"', '\\', '/' -> out.append(e);
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'u' -> {
                        if (pos + 4 > s.length()) {
                            throw new IllegalArgumentException("short \\u escape");
                        }
                        out.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        pos += 4;
                    }
                    default -> throw new IllegalArgumentException("bad escape \\" + e);
                }
            }
        }

        void skipValue() {
            char c = peek();
            if (c == '"') {
                string();
            } else if (c == '{' || c == '[') {
                char close = c == '{' ? '}' : ']';
                pos++;
                ws();
                if (peek() == close) {
                    pos++;
                    return;
                }
                while (true) {
                    ws();
                    if (close == '}') {
                        string();
                        ws();
                        expect(':');
                        ws();
                    }
                    skipValue();
                    ws();
                    char n = next();
                    if (n == close) {
                        return;
                    }
                    if (n != ',') {
                        throw new IllegalArgumentException("expected , at " + (pos - 1));
                    }
                }
            } else {
                int start = pos;
                while (pos < s.length() && ",}] \t\r\n".indexOf(s.charAt(pos)) < 0) {
                    pos++;
                }
                String literal = s.substring(start, pos);
                if (!(literal.equals("true")
                        || literal.equals("false")
                        || literal.equals("null")
                        || literal.matches("-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?"))) {
                    throw new IllegalArgumentException("bad JSON value " + literal);
                }
            }
        }
    }
}
