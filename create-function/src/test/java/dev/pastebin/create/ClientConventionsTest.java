package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.create.PasteOptions;
import dev.pastebin.api.http.ApiErrorCode;
import dev.pastebin.api.http.ApiException;
import dev.pastebin.core.paste.InvalidExpiryException;
import io.micronaut.http.MediaType;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The parsing behind command-line clients' forms: their expiry conventions and the form bodies themselves. */
class ClientConventionsTest {

    @ParameterizedTest
    @CsvSource({
        "10min,600",
        "1h,3600",
        "1h 30m,5400",
        "90s,90",
        "2 hours,7200",
        "7d,604800",
        "1w,604800",
        "1 day 2h,93600",
        "1y,31536000",
        "10MIN,600"
    })
    void rustypastesExpireDurations(String duration, int seconds) {
        assertEquals(
                seconds,
                PasteOptions.fromClientConventions(duration, null, false).expiresInSeconds());
    }

    @ParameterizedTest
    @ValueSource(strings = {"soon", "10", "1x", "10min later", "59s", "0min", "2y", "-5m", "", "h", "1h,30m"})
    void otherExpireValuesAreRefused(String duration) {
        InvalidExpiryException e = assertThrows(
                InvalidExpiryException.class, () -> PasteOptions.fromClientConventions(duration, null, false));
        assertTrue(e.getMessage().startsWith("expire "), e.getMessage());
    }

    /** Each term is matched where the last one ended, never searched for: a long header costs its length. */
    @Test
    void anExpireHeaderOfLongRunsOfSpacesIsReadTermByTerm() {
        String spaces = " ".repeat(10_000);
        assertEquals(
                5_400,
                PasteOptions.fromClientConventions("1h" + spaces + "30m", null, false)
                        .expiresInSeconds());
        for (String expire : new String[] {"1m" + spaces + "x", "1m" + spaces + "1", "x" + spaces + "1m"}) {
            assertThrows(InvalidExpiryException.class, () -> PasteOptions.fromClientConventions(expire, null, false));
        }
    }

    @Test
    void zeroXzeroExpiresIsWholeHoursAndTheHeaderWins() {
        assertEquals(
                86_400, PasteOptions.fromClientConventions(null, "24", false).expiresInSeconds());
        assertEquals(
                31_536_000,
                PasteOptions.fromClientConventions(null, "8760", false).expiresInSeconds());
        assertEquals(
                600, PasteOptions.fromClientConventions("10min", "24", false).expiresInSeconds());
        for (String hours : new String[] {"0", "8761", "1.5", "1e3", "-1", "1700000000000"}) {
            assertThrows(
                    InvalidExpiryException.class, () -> PasteOptions.fromClientConventions(null, hours, false), hours);
        }
        assertEquals(PasteOptions.NONE, PasteOptions.fromClientConventions(null, null, false));
    }

    @Test
    void aUrlEncodedFormDecodesPlusAndEscapesToBytesAndTheFirstFieldWins() {
        ClientForm form = ClientForm.urlEncoded(utf8("content=a+b%26c%E2%9C%93&content=second&flag&=x"));

        assertArrayEquals(utf8("a b&c✓"), form.field("content").orElseThrow());
        assertArrayEquals(new byte[0], form.field("flag").orElseThrow());
        assertTrue(form.field("missing").isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"content=%", "content=%4", "content=%zz", "content=%%41"})
    void aBrokenEscapeIsRefusedNotReplaced(String body) {
        assertEquals(
                ApiErrorCode.BAD_REQUEST,
                assertThrows(ApiException.class, () -> ClientForm.urlEncoded(utf8(body)))
                        .code());
    }

    @Test
    void multipartPartsKeepTheirExactBytes() {
        byte[] content = {'a', '\r', '\n', '-', '-', 'x', (byte) 0xE2, (byte) 0x9C, (byte) 0x93, '\r', '\n'};
        byte[] body = concat(
                utf8("preamble\r\n--xyz\r\nContent-Disposition: form-data; name=\"file\"; filename=\"n.txt\"\r\n"
                        + "Content-Type: text/plain\r\n\r\n"),
                content,
                utf8("\r\n--xyz\r\ncontent-disposition: form-data; name=\"expires\"\r\n\r\n"
                        + "24\r\n--xyz--\r\nepilogue"));

        ClientForm form = ClientForm.multipart(body, MediaType.of("multipart/form-data; boundary=xyz"));

        assertArrayEquals(content, form.field("file").orElseThrow());
        assertEquals("24", form.text("expires").orElseThrow());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "no boundary here",
                "--xyz\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc",
                "--xyz\r\nContent-Disposition: form-data; name=\"file\"",
                "--xyzjunk"
            })
    void aMalformedMultipartBodyIsRefused(String body) {
        assertEquals(
                ApiErrorCode.BAD_REQUEST,
                assertThrows(
                                ApiException.class,
                                () -> ClientForm.multipart(
                                        utf8(body), MediaType.of("multipart/form-data; boundary=xyz")))
                        .code());
    }

    private static final MediaType XYZ = MediaType.of("multipart/form-data; boundary=xyz");

    /** A form of one file part whose Content-Disposition is {@code disposition}, its content "abc". */
    private static byte[] filePart(String disposition) {
        return utf8("--xyz\r\nContent-Disposition: " + disposition + "\r\n\r\nabc\r\n--xyz--\r\n");
    }

    private static ApiException refusal(byte[] body, MediaType type) {
        return assertThrows(ApiException.class, () -> ClientForm.multipart(body, type));
    }

    @Test
    void aFileNameOfAnyLengthIsReadNotAnError() {
        String longName = "x".repeat(5_000) + ".py";

        ClientForm form =
                ClientForm.multipart(filePart("form-data; name=\"file\"; filename=\"" + longName + "\""), XYZ);

        assertEquals(longName, form.fileName("file").orElseThrow());
        assertArrayEquals(utf8("abc"), form.field("file").orElseThrow());
    }

    @Test
    void aFileNameOfThousandsOfEscapesIsReadNotAnError() {
        ClientForm form = ClientForm.multipart(
                filePart("form-data; name=\"file\"; filename=\"" + "\\\"".repeat(3_000) + "\""), XYZ);

        assertEquals("\"".repeat(3_000), form.fileName("file").orElseThrow());
    }

    @Test
    void contentDispositionParametersAreQuotedStringsOrTokensInAnyOrder() {
        assertEquals("a;b.txt", fileNameOf("form-data; name=\"file\"; filename=\"a;b.txt\""));
        assertEquals("say \"hi\".txt", fileNameOf("form-data; name=\"file\"; filename=\"say \\\"hi\\\".txt\""));
        assertEquals("C:\\dir\\n.txt", fileNameOf("form-data; name=\"file\"; filename=\"C:\\\\dir\\\\n.txt\""));
        assertEquals("n.py", fileNameOf("form-data; filename=\"n.py\"; name=\"file\""));
        assertEquals("n.py", fileNameOf("FORM-DATA;name=file;filename=n.py"));
        assertEquals("", fileNameOf("form-data; name=\"file\"; filename=\"n.py"), "an unterminated name is no name");
        assertTrue(
                ClientForm.multipart(filePart("attachment; name=\"file\""), XYZ)
                        .field("file")
                        .isEmpty(),
                "a part that is not form-data has no field name");
    }

    /** The file name the file part declares, or "" when it declares none. */
    private static String fileNameOf(String disposition) {
        ClientForm form = ClientForm.multipart(filePart(disposition), XYZ);
        assertArrayEquals(utf8("abc"), form.field("file").orElseThrow(), disposition);
        return form.fileName("file").orElse("");
    }

    @Test
    void aBoundaryOfRfc2046sLongestLengthAndAnyOfItsCharactersIsRead() {
        String boundary = "09azAZ'()+_,-./:=? ".repeat(4).substring(0, 69) + "x";

        ClientForm form = ClientForm.multipart(
                utf8("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"" + "\r\n\r\nabc\r\n--"
                        + boundary + "--\r\n"),
                MediaType.of("multipart/form-data; boundary=\"" + boundary + "\""));

        assertArrayEquals(utf8("abc"), form.field("file").orElseThrow());
    }

    @ParameterizedTest
    @ValueSource(strings = {"71 characters", "empty", "a@b", "a<b>", "a[b]", "é"})
    void aBoundaryLongerThan70CharactersOrOutsideRfc2046sSetIsRefused(String shape) {
        String boundary = switch (shape) {
            case "71 characters" -> "-".repeat(71);
            case "empty" -> "";
            default -> shape;
        };
        byte[] body = utf8("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc\r\n--"
                + boundary + "--\r\n");

        ApiException e = refusal(body, MediaType.of("multipart/form-data; boundary=\"" + boundary + "\""));

        assertEquals(ApiErrorCode.BAD_REQUEST, e.code());
        assertTrue(e.getMessage().contains("1 to 70 characters"), e.getMessage());
    }

    @Test
    void aPartsHeadersAreReadUpTo8KiB() {
        String disposition = "Content-Disposition: form-data; name=\"file\"\r\nX-Padding: ";
        String largest = disposition + "p".repeat(8192 - disposition.length());
        byte[] fits = utf8("--xyz\r\n" + largest + "\r\n\r\nabc\r\n--xyz--\r\n");
        byte[] tooLong = utf8("--xyz\r\n" + largest + "p\r\n\r\nabc\r\n--xyz--\r\n");

        assertArrayEquals(
                utf8("abc"), ClientForm.multipart(fits, XYZ).field("file").orElseThrow());
        ApiException e = refusal(tooLong, XYZ);
        assertEquals(ApiErrorCode.BAD_REQUEST, e.code());
        assertTrue(e.getMessage().contains("8192 bytes"), e.getMessage());
    }

    @Test
    void aFormHasAtMost100Parts() {
        StringBuilder hundred = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            hundred.append("--xyz\r\nContent-Disposition: form-data; name=\"f")
                    .append(i)
                    .append("\"\r\n\r\nv\r\n");
        }

        assertEquals(
                "v",
                ClientForm.multipart(utf8(hundred + "--xyz--\r\n"), XYZ)
                        .text("f99")
                        .orElseThrow());
        ApiException e = refusal(
                utf8(hundred + "--xyz\r\nContent-Disposition: form-data; name=\"f100\"\r\n\r\nv\r\n--xyz--\r\n"), XYZ);
        assertEquals(ApiErrorCode.BAD_REQUEST, e.code());
        assertTrue(e.getMessage().contains("100 parts"), e.getMessage());
    }

    /** Near misses of the delimiter everywhere: the search still finds exactly the real one, or answers there is none. */
    @Test
    void nearMissesOfTheLongestDelimiterAreContentNotBoundaries() {
        String boundary = "-".repeat(70);
        MediaType type = MediaType.of("multipart/form-data; boundary=" + boundary);
        String nearMisses = ("\r\n--" + "-".repeat(69) + "x").repeat(10_000);

        ClientForm form = ClientForm.multipart(
                utf8("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\n" + nearMisses
                        + "\r\n--" + boundary + "--\r\n"),
                type);
        assertArrayEquals(utf8(nearMisses), form.field("file").orElseThrow());

        byte[] noDelimiter = utf8(("-".repeat(71) + "x").repeat(11_000));
        assertEquals(ApiErrorCode.BAD_REQUEST, refusal(noDelimiter, type).code());
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }
}
