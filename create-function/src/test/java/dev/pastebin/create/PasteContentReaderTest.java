package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.pastebin.api.create.PasteRequest;
import dev.pastebin.api.http.ApiErrorCode;
import dev.pastebin.api.http.ApiException;
import dev.pastebin.core.paste.InvalidExpiryException;
import dev.pastebin.core.paste.InvalidFileNameException;
import dev.pastebin.core.paste.InvalidLanguageException;
import dev.pastebin.core.paste.InvalidReadOnceException;
import dev.pastebin.core.paste.PasteMetadata;
import dev.pastebin.core.paste.PasteProperties;
import io.micronaut.http.MediaType;
import io.micronaut.serde.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PasteContentReaderTest {

    private static final int LIMIT = 16;
    private final PasteContentReader reader =
            new PasteContentReader(new PasteProperties(11, LIMIT), ObjectMapper.getDefault());

    private byte[] text(byte[] body) {
        return reader.fromText(body, null, null, null, null).content();
    }

    private byte[] json(byte[] body) {
        return reader.fromJson(body).content();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static ApiErrorCode rejection(Runnable read) {
        return assertThrows(ApiException.class, read::run).code();
    }

    @Test
    void aTextBodyIsThePasteByteForByte() {
        byte[] body = utf8("ä\r\n\t🧪 ");
        assertArrayEquals(body, text(body));
    }

    @Test
    void theLimitCountsBytesNotCharacters() {
        assertArrayEquals(utf8("🧪🧪🧪🧪"), text(utf8("🧪🧪🧪🧪"))); // 16 bytes
        assertEquals(ApiErrorCode.CONTENT_TOO_LARGE, rejection(() -> text(utf8("🧪🧪🧪🧪a"))));
        assertEquals(ApiErrorCode.CONTENT_TOO_LARGE, rejection(() -> json(utf8("{\"content\":\"🧪🧪🧪🧪a\"}"))));
    }

    @Test
    void emptyPastesAreRejected() {
        assertEquals(ApiErrorCode.EMPTY_CONTENT, rejection(() -> text(null)));
        assertEquals(ApiErrorCode.EMPTY_CONTENT, rejection(() -> text(new byte[0])));
        assertEquals(ApiErrorCode.EMPTY_CONTENT, rejection(() -> json(utf8("{\"content\":\"\"}"))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"C328", "E282", "F0908C", "ED A0 80", "C0AF", "FF", "F4908080"})
    void malformedUtf8IsRejectedNotRepaired(String hex) {
        byte[] bytes = java.util.HexFormat.of().parseHex(hex.replace(" ", ""));
        assertEquals(ApiErrorCode.INVALID_UTF8, rejection(() -> text(bytes)));
    }

    @Test
    void jsonContentIsEncodedAsUtf8() {
        assertArrayEquals(
                utf8("a\r\n\t\u0000é"), json(utf8("{\"content\":\"a\\r\\n\\t\\u0000\\u00e9\",\"ignored\":1}")));
    }

    @Test
    void anUnpairedSurrogateInJsonIsNotText() {
        assertEquals(ApiErrorCode.INVALID_UTF8, rejection(() -> json(utf8("{\"content\":\"x\\ud800\"}"))));
    }

    @Test
    void jsonThatIsNotUtf8IsInvalidUtf8() {
        byte[] body = {'{', '"', 'c', 'o', 'n', 't', 'e', 'n', 't', '"', ':', '"', (byte) 0xC3, '"', '}'};
        assertEquals(ApiErrorCode.INVALID_UTF8, rejection(() -> json(body)));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "not json",
                "[]",
                "null",
                "\"text\"",
                "{\"content\":",
                // which content would be the paste? refused rather than resolved quietly
                "{\"content\":\"a\",\"content\":\"b\"}",
                "{\"content\":\"a\",\"x\":{\"y\":1,\"y\":2}}",
                // a document and then something else
                "{\"content\":\"a\"} x",
                "{\"content\":\"a\"}{\"content\":\"b\"}",
                "{\"content\":\"a\"}]"
            })
    void bodiesThatAreNotTheJsonObjectAreInvalidJson(String body) {
        assertEquals(ApiErrorCode.INVALID_JSON, rejection(() -> json(utf8(body))));
    }

    @Test
    void anEmptyJsonBodyIsEmptyContent() {
        assertEquals(ApiErrorCode.EMPTY_CONTENT, rejection(() -> json(new byte[0])));
    }

    @Test
    void aHasteMultipartBodyTooLargeToHoldAnAllowedPasteIsRefusedBeforeItIsParsed() {
        byte[] tooLarge = utf8("x".repeat(LIMIT + 16 * 1024 + 1));

        assertEquals(
                ApiErrorCode.CONTENT_TOO_LARGE,
                rejection(() -> reader.fromHaste(tooLarge, MediaType.of("multipart/form-data; boundary=x"))));
    }

    @Test
    void anUploadedFileNameTooLongToStoreIsDroppedAndThePasteKept() {
        byte[] body = utf8("--x\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + "x".repeat(5_000)
                + ".py\"\r\n\r\nabc\r\n--x--\r\n");

        PasteRequest paste = reader.fromForm(
                ClientForm.multipart(body, MediaType.of("multipart/form-data; boundary=x")), true, null);

        assertArrayEquals(utf8("abc"), paste.content());
        assertEquals(PasteMetadata.NONE, paste.metadata());
    }

    @Test
    void jsonWithoutContentIsMissingContent() {
        assertEquals(ApiErrorCode.MISSING_CONTENT, rejection(() -> json(utf8("{}"))));
        assertEquals(ApiErrorCode.MISSING_CONTENT, rejection(() -> json(utf8("{\"content\":null}"))));
        assertEquals(ApiErrorCode.MISSING_CONTENT, rejection(() -> json(utf8("{\"text\":\"hi\"}"))));
        assertEquals(ApiErrorCode.MISSING_CONTENT, rejection(() -> json(utf8("{\"content\":[\"hi\"]}"))));
        assertEquals(ApiErrorCode.MISSING_CONTENT, rejection(() -> json(utf8("{\"content\":42}"))));
    }

    /**
     * Options and labels the pastebin does not take are the domain's refusals, whichever form carried them: core's
     * error processor answers them with their code (DomainRefusalsTest), the body's own faults are ApiExceptions.
     */
    @Test
    void optionsAndLabelsItDoesNotTakeAreRefusedAsTheDomainRefuses() {
        assertThrows(InvalidExpiryException.class, () -> json(utf8("{\"content\":\"x\",\"expiresIn\":\"3600\"}")));
        assertThrows(InvalidExpiryException.class, () -> reader.fromText(utf8("x"), "59", null, null, null));
        assertThrows(InvalidReadOnceException.class, () -> json(utf8("{\"content\":\"x\",\"readOnce\":1}")));
        assertThrows(InvalidReadOnceException.class, () -> reader.fromText(utf8("x"), null, "yes", null, null));
        assertEquals(
                "language must be a string",
                assertThrows(InvalidLanguageException.class, () -> json(utf8("{\"content\":\"x\",\"language\":42}")))
                        .getMessage());
        assertEquals(
                "fileName must be a string",
                assertThrows(
                                InvalidFileNameException.class,
                                () -> json(utf8("{\"content\":\"x\",\"fileName\":[\"a\"]}")))
                        .getMessage());
    }
}
