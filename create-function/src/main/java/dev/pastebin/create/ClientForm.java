package dev.pastebin.create;

import dev.pastebin.core.http.ApiErrorCode;
import dev.pastebin.core.http.ApiException;
import io.micronaut.http.MediaType;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The fields of a form body as existing command-line clients post it: {@code multipart/form-data} (RFC 7578;
 * {@code curl -F file=@notes.txt}) or {@code application/x-www-form-urlencoded} ({@code pastebinit}, HTML forms).
 * Read from the raw bytes because the API Gateway proxy has no multipart support of its own, and its form
 * decoding would turn a malformed percent-escape into U+FFFD instead of an error. Values stay bytes: whether
 * they are text is {@link PasteContentReader}'s decision. The first field of a name wins, with the file name a
 * multipart part declared for it ({@code filename="notes.py"}, as curl sends it).
 */
final class ClientForm {

    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] HEADERS_END = {'\r', '\n', '\r', '\n'};
    private static final Pattern FIELD_NAME = Pattern.compile(
            "(?i)^content-disposition:\\s*form-data\\s*;(?:.*;)?\\s*name=\"([^\"]*)\"", Pattern.MULTILINE);
    /** A quoted string with backslash escapes (curl escapes a quote in a file name as \"). */
    private static final Pattern FILE_NAME = Pattern.compile(
            "(?i)^content-disposition:.*;\\s*filename=\"((?:[^\"\\\\]|\\\\.)*)\"", Pattern.MULTILINE);
    private static final Pattern ESCAPED = Pattern.compile("\\\\(.)");

    private final Map<String, byte[]> fields;
    private final Map<String, String> fileNames;

    private ClientForm(Map<String, byte[]> fields, Map<String, String> fileNames) {
        this.fields = fields;
        this.fileNames = fileNames;
    }

    Optional<byte[]> field(String name) {
        return Optional.ofNullable(fields.get(name));
    }

    /** The file name the part of that name declared, if it is a file part. */
    Optional<String> fileName(String name) {
        return Optional.ofNullable(fileNames.get(name));
    }

    /** A short option field (a number of hours, a flag) as text. */
    Optional<String> text(String name) {
        return field(name).map(bytes -> new String(bytes, StandardCharsets.UTF_8).strip());
    }

    static ClientForm multipart(byte[] body, MediaType type) {
        String boundary = type.getParameters().get("boundary")
                .orElseThrow(() -> invalid("The multipart Content-Type has no boundary"));
        byte[] delimiter = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        int at = indexOf(body, delimiter, 0);
        if (at < 0) {
            throw invalid("The body is not multipart/form-data with the declared boundary");
        }
        byte[] partDelimiter = concat(CRLF, delimiter);
        Map<String, byte[]> fields = new LinkedHashMap<>();
        Map<String, String> fileNames = new LinkedHashMap<>();
        int cursor = at + delimiter.length;
        while (!startsWith(body, cursor, "--")) {
            if (!startsWith(body, cursor, "\r\n")) {
                throw invalid("A multipart boundary is not followed by a line break");
            }
            int headersEnd = indexOf(body, HEADERS_END, cursor + 2);
            int next = headersEnd < 0 ? -1 : indexOf(body, partDelimiter, headersEnd + HEADERS_END.length);
            if (next < 0) {
                throw invalid("The multipart body ends inside a part");
            }
            String headers = new String(body, cursor + 2, headersEnd - cursor - 2, StandardCharsets.UTF_8);
            Matcher name = FIELD_NAME.matcher(headers);
            if (name.find() && !fields.containsKey(name.group(1))) {
                fields.put(name.group(1), Arrays.copyOfRange(body, headersEnd + HEADERS_END.length, next));
                Matcher fileName = FILE_NAME.matcher(headers);
                if (fileName.find()) {
                    fileNames.put(name.group(1), ESCAPED.matcher(fileName.group(1)).replaceAll("$1"));
                }
            }
            cursor = next + partDelimiter.length;
        }
        return new ClientForm(fields, fileNames);
    }

    static ClientForm urlEncoded(byte[] body) {
        Map<String, byte[]> fields = new LinkedHashMap<>();
        String form = new String(body, StandardCharsets.ISO_8859_1);
        for (String pair : form.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name = new String(percentDecode(equals < 0 ? pair : pair.substring(0, equals)), StandardCharsets.UTF_8);
            fields.putIfAbsent(name, equals < 0 ? new byte[0] : percentDecode(pair.substring(equals + 1)));
        }
        return new ClientForm(fields, Map.of());
    }

    private static byte[] percentDecode(String encoded) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(encoded.length());
        for (int i = 0; i < encoded.length(); i++) {
            char c = encoded.charAt(i);
            if (c == '+') {
                out.write(' ');
            } else if (c == '%') {
                if (i + 2 >= encoded.length()) {
                    throw invalid("The form has a truncated percent-escape");
                }
                int high = Character.digit(encoded.charAt(i + 1), 16);
                int low = Character.digit(encoded.charAt(i + 2), 16);
                if (high < 0 || low < 0) {
                    throw invalid("The form has an invalid percent-escape");
                }
                out.write(high << 4 | low);
                i += 2;
            } else {
                out.write(c);
            }
        }
        return out.toByteArray();
    }

    private static ApiException invalid(String message) {
        return new ApiException(ApiErrorCode.BAD_REQUEST, message);
    }

    private static boolean startsWith(byte[] body, int at, String prefix) {
        return at + prefix.length() <= body.length
                && new String(body, at, prefix.length(), StandardCharsets.ISO_8859_1).equals(prefix);
    }

    private static int indexOf(byte[] haystack, byte[] needle, int from) {
        outer:
        for (int i = Math.max(from, 0); i <= haystack.length - needle.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
