package dev.pastebin.create;

import com.google.re2j.Pattern;
import dev.pastebin.api.http.ApiErrorCode;
import dev.pastebin.api.http.ApiException;
import dev.pastebin.api.http.StrictBodies;
import io.micronaut.http.MediaType;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The fields of a form body as existing command-line clients post it: {@code multipart/form-data} (RFC 7578;
 * {@code curl -F file=@notes.txt}) or {@code application/x-www-form-urlencoded} ({@code pastebinit}, HTML forms).
 * Read from the raw bytes because the API Gateway proxy has no multipart support of its own, and its form
 * decoding would turn a malformed percent-escape into U+FFFD instead of an error. Values stay bytes: whether
 * they are text is {@link PasteContentReader}'s decision. The first field of a name wins, with the file name a
 * multipart part declared for it ({@code filename="notes.py"}, as curl sends it).
 *
 * <p>A multipart body costs time in proportion to its length, whatever its shape: the boundary is RFC 2046's (at
 * most 70 characters of its set), delimiters are found by a linear search, a part's header lines are read only up
 * to {@value #MAX_PART_HEADER_BYTES} bytes and a form has at most {@value #MAX_PARTS} parts. Anything else is a 400.
 */
final class ClientForm {

    /** RFC 2046, section 5.1.1: a boundary is 1 to 70 characters. */
    static final int MAX_BOUNDARY_LENGTH = 70;
    /** Room for a long file name: curl's part headers are under 200 bytes. */
    static final int MAX_PART_HEADER_BYTES = 8 * 1024;
    /** Clients send one to three parts (file or oneshot, expires). */
    static final int MAX_PARTS = 100;

    private static final byte[] CRLF = {'\r', '\n'};
    private static final ByteSearch HEADERS_END = ByteSearch.of(new byte[] {'\r', '\n', '\r', '\n'});
    /** RFC 2046's bchars, the last not a space; the length is checked first. */
    private static final Pattern BOUNDARY = Pattern.compile("[0-9A-Za-z'()+_,\\-./:=? ]*[0-9A-Za-z'()+_,\\-./:=?]");

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
        byte[] delimiter = ("--" + boundary(type)).getBytes(StandardCharsets.US_ASCII);
        int at = ByteSearch.of(delimiter).indexIn(body, 0);
        if (at < 0) {
            throw invalid("The body is not multipart/form-data with the declared boundary");
        }
        ByteSearch partEnd = ByteSearch.of(concat(CRLF, delimiter));
        Map<String, byte[]> fields = new LinkedHashMap<>();
        Map<String, String> fileNames = new LinkedHashMap<>();
        int cursor = at + delimiter.length;
        for (int parts = 0; !startsWith(body, cursor, "--"); parts++) {
            if (!startsWith(body, cursor, "\r\n")) {
                throw invalid("A multipart boundary is not followed by a line break");
            }
            if (parts == MAX_PARTS) {
                throw invalid("The multipart body has more than " + MAX_PARTS + " parts");
            }
            int headersStart = cursor + CRLF.length;
            int headersLimit = headersStart + MAX_PART_HEADER_BYTES + HEADERS_END.length();
            int headersEnd = HEADERS_END.indexIn(body, headersStart, headersLimit);
            if (headersEnd < 0 && headersLimit <= body.length) {
                throw invalid("A multipart part's headers are longer than " + MAX_PART_HEADER_BYTES + " bytes");
            }
            int contentStart = headersEnd + HEADERS_END.length();
            int next = headersEnd < 0 ? -1 : partEnd.indexIn(body, contentStart);
            if (next < 0) {
                throw invalid("The multipart body ends inside a part");
            }
            FormDataDisposition disposition = FormDataDisposition.in(
                            new String(body, headersStart, headersEnd - headersStart, StandardCharsets.UTF_8))
                    .orElse(null);
            if (disposition != null && !fields.containsKey(disposition.name())) {
                fields.put(disposition.name(), Arrays.copyOfRange(body, contentStart, next));
                if (disposition.fileName() != null) {
                    fileNames.put(disposition.name(), disposition.fileName());
                }
            }
            cursor = next + partEnd.length();
        }
        return new ClientForm(fields, fileNames);
    }

    /** The declared boundary, if RFC 2046 allows it: a longer one would only make the delimiter search dearer. */
    private static String boundary(MediaType type) {
        String boundary = type.getParameters()
                .get("boundary")
                .orElseThrow(() -> invalid("The multipart Content-Type has no boundary"));
        if (boundary.length() > MAX_BOUNDARY_LENGTH
                || !BOUNDARY.matcher(boundary).matches()) {
            throw invalid("The multipart boundary must be 1 to " + MAX_BOUNDARY_LENGTH + " characters of RFC 2046's "
                    + "set (letters, digits, space and '()+_,-./:=?), not ending in a space");
        }
        return boundary;
    }

    static ClientForm urlEncoded(byte[] body) {
        Map<String, byte[]> fields = new LinkedHashMap<>();
        String form = new String(body, StandardCharsets.ISO_8859_1);
        for (String pair : form.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name = new String(
                    StrictBodies.percentDecode(equals < 0 ? pair : pair.substring(0, equals)), StandardCharsets.UTF_8);
            fields.putIfAbsent(name, equals < 0 ? new byte[0] : StrictBodies.percentDecode(pair.substring(equals + 1)));
        }
        return new ClientForm(fields, Map.of());
    }

    private static ApiException invalid(String message) {
        return new ApiException(ApiErrorCode.BAD_REQUEST, message);
    }

    private static boolean startsWith(byte[] body, int at, String prefix) {
        return at + prefix.length() <= body.length
                && new String(body, at, prefix.length(), StandardCharsets.ISO_8859_1).equals(prefix);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }
}
