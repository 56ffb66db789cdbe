package dev.pastebin.create;

import dev.pastebin.core.http.ApiErrorCode;
import dev.pastebin.core.http.ApiException;
import io.micronaut.http.MediaType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The parsing behind command-line clients' forms: their expiry conventions and the form bodies themselves. */
class ClientConventionsTest {

    @ParameterizedTest
    @CsvSource({"10min,600", "1h,3600", "1h 30m,5400", "90s,90", "2 hours,7200", "7d,604800", "1w,604800",
            "1 day 2h,93600", "1y,31536000", "10MIN,600"})
    void rustypastesExpireDurations(String duration, int seconds) {
        assertEquals(seconds, PasteOptions.fromClientConventions(duration, null, false).expiresInSeconds());
    }

    @ParameterizedTest
    @ValueSource(strings = {"soon", "10", "1x", "10min later", "59s", "0min", "2y", "-5m", "", "h", "1h,30m"})
    void otherExpireValuesAreRefused(String duration) {
        ApiException e = assertThrows(ApiException.class, () -> PasteOptions.fromClientConventions(duration, null, false));
        assertEquals(ApiErrorCode.INVALID_EXPIRY, e.code());
        assertTrue(e.getMessage().startsWith("expire "), e.getMessage());
    }

    @Test
    void zeroXzeroExpiresIsWholeHoursAndTheHeaderWins() {
        assertEquals(86_400, PasteOptions.fromClientConventions(null, "24", false).expiresInSeconds());
        assertEquals(31_536_000, PasteOptions.fromClientConventions(null, "8760", false).expiresInSeconds());
        assertEquals(600, PasteOptions.fromClientConventions("10min", "24", false).expiresInSeconds());
        for (String hours : new String[]{"0", "8761", "1.5", "1e3", "-1", "1700000000000"}) {
            assertEquals(ApiErrorCode.INVALID_EXPIRY,
                    assertThrows(ApiException.class, () -> PasteOptions.fromClientConventions(null, hours, false)).code(), hours);
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
        assertEquals(ApiErrorCode.BAD_REQUEST, assertThrows(ApiException.class, () -> ClientForm.urlEncoded(utf8(body))).code());
    }

    @Test
    void multipartPartsKeepTheirExactBytes() {
        byte[] content = {'a', '\r', '\n', '-', '-', 'x', (byte) 0xE2, (byte) 0x9C, (byte) 0x93, '\r', '\n'};
        byte[] body = concat(utf8("preamble\r\n--xyz\r\nContent-Disposition: form-data; name=\"file\"; filename=\"n.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\n"), content, utf8("\r\n--xyz\r\ncontent-disposition: form-data; name=\"expires\"\r\n\r\n"
                + "24\r\n--xyz--\r\nepilogue"));

        ClientForm form = ClientForm.multipart(body, MediaType.of("multipart/form-data; boundary=xyz"));

        assertArrayEquals(content, form.field("file").orElseThrow());
        assertEquals("24", form.text("expires").orElseThrow());
    }

    @ParameterizedTest
    @ValueSource(strings = {"no boundary here", "--xyz\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc",
            "--xyz\r\nContent-Disposition: form-data; name=\"file\"", "--xyzjunk"})
    void aMalformedMultipartBodyIsRefused(String body) {
        assertEquals(ApiErrorCode.BAD_REQUEST, assertThrows(ApiException.class,
                () -> ClientForm.multipart(utf8(body), MediaType.of("multipart/form-data; boundary=xyz"))).code());
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
