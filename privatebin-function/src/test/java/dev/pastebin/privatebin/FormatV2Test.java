package dev.pastebin.privatebin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.paste.PasteProperties;
import dev.pastebin.core.support.PrivateBinClientCrypto;
import io.micronaut.json.JsonMapper;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The validation PrivateBin does on a posted paste, and the expiry mapping. */
class FormatV2Test {

    private static final JsonMapper JSON = JsonMapper.createDefault();
    private static final String IV = "MDEyMzQ1Njc4OWFiY2RlZg==";
    private static final String SALT = "c2FsdHNhbHQ=";
    private static final String CT = PrivateBinClientCrypto.b64(PrivateBinClientCrypto.random(600));
    private static final String ADATA =
            "[[\"" + IV + "\",\"" + SALT + "\",100000,256,128,\"aes\",\"gcm\",\"zlib\"]," + "\"plaintext\",0,0]";

    private final FormatV2 format = new FormatV2(new PasteProperties(11, PasteProperties.MAX_CONTENT_BYTES_CAP));

    private static String body(String adata, String ct, String expire) {
        return "{\"v\":2,\"adata\":" + adata + ",\"ct\":\"" + ct + "\",\"meta\":{\"expire\":\"" + expire + "\"}}";
    }

    private EncryptedPasteRequest validate(String body) {
        PostedBody posted = PostedBody.parse(body.getBytes(StandardCharsets.UTF_8), JSON)
                .orElseThrow(InvalidPasteDataException::invalidData);
        return format.paste(posted);
    }

    private void assertRefused(String body) {
        InvalidPasteDataException refused = assertThrows(InvalidPasteDataException.class, () -> validate(body), body);
        assertEquals("Invalid data.", refused.getMessage(), body);
    }

    @Test
    void aClientsPasteIsValidAndItsAdataKeptAsSent() {
        String spaced = "[ [\"" + IV + "\", \"" + SALT + "\", 100000, 256, 128, \"aes\", \"gcm\", \"zlib\"],\n"
                + " \"plain\\u0074ext\", 0, 1 ]";

        EncryptedPasteRequest paste = validate(body(spaced, CT, "1week"));

        assertArrayEquals(spaced.getBytes(StandardCharsets.UTF_8), paste.adata());
        assertEquals(CT, paste.ct());
        assertEquals(PrivateBinExpiry.ONE_WEEK, paste.expiry());
        assertTrue(paste.burnAfterReading());
        assertFalse(validate(body(ADATA, CT, "1day")).burnAfterReading());
    }

    /** PrivateBin reads the four keys it needs and ignores the rest of the body: pbcli sends {@code "id": ""}. */
    @Test
    void otherKeysOfTheBodyAreIgnoredAndNotStored() {
        String pbcli = "{\"status\":null,\"id\":\"\",\"v\":2,\"ct\":\"" + CT
                + "\",\"meta\":{\"expire\":\"1week\"},\"adata\":" + ADATA + "}";

        EncryptedPasteRequest paste = validate(pbcli);

        assertEquals(
                "{\"v\":2,\"adata\":" + ADATA + ",\"ct\":\"" + CT + "\",\"meta\":{\"expire\":\"1week\"}}",
                new String(PasteEnvelope.of(paste), StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                // the key set: missing, a comment's keys
                "{\"v\":2,\"adata\":ADATA,\"ct\":\"CT\"}",
                "{\"adata\":ADATA,\"ct\":\"CT\",\"meta\":{\"expire\":\"1day\"}}",
                "{\"v\":2,\"adata\":ADATA,\"ct\":\"CT\",\"pasteid\":\"abc\",\"parentid\":\"abc\"}",
                // the version
                "{\"v\":1,\"adata\":ADATA,\"ct\":\"CT\",\"meta\":{\"expire\":\"1day\"}}",
                "{\"v\":\"2\",\"adata\":ADATA,\"ct\":\"CT\",\"meta\":{\"expire\":\"1day\"}}",
                // meta: exactly expire
                "{\"v\":2,\"adata\":ADATA,\"ct\":\"CT\",\"meta\":{\"expire\":\"1day\",\"salt\":\"x\"}}",
                "{\"v\":2,\"adata\":ADATA,\"ct\":\"CT\",\"meta\":{}}",
                "{\"v\":2,\"adata\":ADATA,\"ct\":\"CT\",\"meta\":[]}",
                // ct
                "{\"v\":2,\"adata\":ADATA,\"ct\":42,\"meta\":{\"expire\":\"1day\"}}",
                "{\"v\":2,\"adata\":ADATA,\"ct\":\"not base64!\",\"meta\":{\"expire\":\"1day\"}}",
                "{\"v\":2,\"adata\":ADATA,\"ct\":\"\",\"meta\":{\"expire\":\"1day\"}}",
                // adata's shape
                "{\"v\":2,\"adata\":{},\"ct\":\"CT\",\"meta\":{\"expire\":\"1day\"}}",
                "{\"v\":2,\"adata\":\"ADATA\",\"ct\":\"CT\",\"meta\":{\"expire\":\"1day\"}}",
                "{\"v\":2,\"adata\":[[]],\"ct\":\"CT\",\"meta\":{\"expire\":\"1day\"}}",
            })
    void aBodyPrivateBinRefusesIsInvalidData(String template) {
        assertRefused(template.replace("ADATA", ADATA).replace("CT", CT));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "too few PBKDF2 iterations|\"%s\",\"%s\",10000,256,128,\"aes\",\"gcm\",\"zlib\"",
                // a creator could make every reader's page derive a key for minutes (review L5)
                "too many PBKDF2 iterations|\"%s\",\"%s\",1000001,256,128,\"aes\",\"gcm\",\"zlib\"",
                "iterations as a decimal|\"%s\",\"%s\",100000.0,256,128,\"aes\",\"gcm\",\"zlib\"",
                "a key size AES has not|\"%s\",\"%s\",100000,512,128,\"aes\",\"gcm\",\"zlib\"",
                "a tag size GCM has not|\"%s\",\"%s\",100000,256,120,\"aes\",\"gcm\",\"zlib\"",
                "another cipher|\"%s\",\"%s\",100000,256,128,\"des\",\"gcm\",\"zlib\"",
                "another mode|\"%s\",\"%s\",100000,256,128,\"aes\",\"ecb\",\"zlib\"",
                "another compression|\"%s\",\"%s\",100000,256,128,\"aes\",\"gcm\",\"gzip\"",
                "seven parameters|\"%s\",\"%s\",100000,256,128,\"aes\",\"gcm\"",
                "an IV too long|\"%sAAAA\",\"%s\",100000,256,128,\"aes\",\"gcm\",\"zlib\"",
                "a salt too long|\"%s\",\"%sAAAA\",100000,256,128,\"aes\",\"gcm\",\"zlib\"",
                "an IV not base64|\"%s!\",\"%s\",100000,256,128,\"aes\",\"gcm\",\"zlib\"",
            })
    void badCipherParametersAreInvalidData(String what, String parameters) {
        String adata = "[[" + parameters.formatted(IV, SALT) + "],\"plaintext\",0,0]";
        assertRefused(body(adata, CT, "1day"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "\"plaintext\",0", // no burn flag
                "\"html\",0,0", // a formatter PrivateBin has not
                "42,0,0",
                "\"plaintext\",0,2", // burn is 0 or 1
                "\"plaintext\",0,true",
                "\"plaintext\",0,1.0",
                "\"plaintext\",2,0",
                // open discussion: refused as PrivateBin refuses it with discussion disabled
                "\"plaintext\",1,0",
            })
    void badFlagsAreInvalidData(String flags) {
        String adata = "[[\"" + IV + "\",\"" + SALT + "\",100000,256,128,\"aes\",\"gcm\",\"zlib\"]," + flags + "]";
        assertRefused(body(adata, CT, "1day"));
    }

    /** PrivateBin's "is this ciphertext" check: data that deflates to fewer bytes is not. */
    @Test
    void compressibleCiphertextIsRefused() {
        byte[] text = "all work and no play makes a dull paste ".repeat(40).getBytes(StandardCharsets.UTF_8);
        assertRefused(body(ADATA, PrivateBinClientCrypto.b64(text), "1day"));
        assertTrue(FormatV2.compresses(text));
        assertFalse(FormatV2.compresses(PrivateBinClientCrypto.random(4096)));
        byte[] zeros = new byte[64];
        Arrays.fill(zeros, (byte) 0);
        assertTrue(FormatV2.compresses(zeros));
    }

    @Test
    void anExpiryPrivateBinDoesNotOfferIsRefusedByName() {
        for (String expire : new String[] {"2days", "", "NEVER", "1 day"}) {
            InvalidPasteDataException refused =
                    assertThrows(InvalidPasteDataException.class, () -> validate(body(ADATA, CT, expire)));
            assertEquals(
                    "Unknown expiry: meta.expire is one of 5min, 10min, 1hour, 1day, 1week, 1month, 1year, never.",
                    refused.getMessage());
        }
        String numeric = "{\"v\":2,\"adata\":" + ADATA + ",\"ct\":\"" + CT + "\",\"meta\":{\"expire\":300}}";
        assertThrows(InvalidPasteDataException.class, () -> validate(numeric));
    }

    @Test
    void eachExpiryIsItsLifetime() {
        assertEquals(300, PrivateBinExpiry.of("5min").orElseThrow().lifetimeSeconds());
        assertEquals(600, PrivateBinExpiry.of("10min").orElseThrow().lifetimeSeconds());
        assertEquals(3_600, PrivateBinExpiry.of("1hour").orElseThrow().lifetimeSeconds());
        assertEquals(86_400, PrivateBinExpiry.of("1day").orElseThrow().lifetimeSeconds());
        assertEquals(604_800, PrivateBinExpiry.of("1week").orElseThrow().lifetimeSeconds());
        assertEquals(2_592_000, PrivateBinExpiry.of("1month").orElseThrow().lifetimeSeconds());
        assertEquals(31_536_000, PrivateBinExpiry.of("1year").orElseThrow().lifetimeSeconds());
        assertNull(PrivateBinExpiry.of("never").orElseThrow().lifetimeSeconds(), "never: no expiry");
        for (PrivateBinExpiry expiry : PrivateBinExpiry.values()) {
            assertEquals(expiry, validate(body(ADATA, CT, expiry.value())).expiry());
        }
    }

    /** The stored envelope must fit the paste limit: the ciphertext's limit leaves room for adata and the keys. */
    @Test
    void theCiphertextLimitKeepsTheEnvelopeWithinThePasteLimit() {
        FormatV2 small = new FormatV2(new PasteProperties(11, 8192));
        int limit = small.maxCiphertextChars();
        String atLimit = PrivateBinClientCrypto.b64(PrivateBinClientCrypto.random(limit / 4 * 3));
        String over = PrivateBinClientCrypto.b64(PrivateBinClientCrypto.random(limit / 4 * 3 + 3));
        String maxAdata = "[[\"" + IV + "\",\"" + SALT + "\",100000,256,128,\"aes\",\"gcm\",\"zlib\"],\"plaintext\",0,0"
                + " ".repeat(FormatV2.MAX_ADATA_BYTES - ADATA.length()) + "]";
        assertEquals(FormatV2.MAX_ADATA_BYTES, maxAdata.length());

        EncryptedPasteRequest fits =
                small.paste(PostedBody.parse(body(maxAdata, atLimit, "never").getBytes(StandardCharsets.UTF_8), JSON)
                        .orElseThrow());
        InvalidPasteDataException tooLarge = assertThrows(
                InvalidPasteDataException.class,
                () -> small.paste(PostedBody.parse(body(ADATA, over, "never").getBytes(StandardCharsets.UTF_8), JSON)
                        .orElseThrow()));

        assertTrue(PasteEnvelope.of(fits).length <= 8192, "the envelope fits: " + PasteEnvelope.of(fits).length);
        assertEquals("Document is limited to " + (limit / 1024) + " KiB of encrypted data.", tooLarge.getMessage());
        String longerAdata = maxAdata.substring(0, maxAdata.length() - 1) + " ]";
        assertRefused(body(longerAdata, CT, "1day"));
    }

    @Test
    void theEnvelopeKeepsAdataAndReadsBack() {
        String spaced = "[ [\"" + IV + "\",\"" + SALT + "\", 1e5 ] ]";
        EncryptedPasteRequest paste =
                new EncryptedPasteRequest(spaced.getBytes(StandardCharsets.UTF_8), CT, PrivateBinExpiry.NEVER, false);

        byte[] envelope = PasteEnvelope.of(paste);

        assertEquals(
                "{\"v\":2,\"adata\":" + spaced + ",\"ct\":\"" + CT + "\",\"meta\":{\"expire\":\"never\"}}",
                new String(envelope, StandardCharsets.UTF_8));
        PasteEnvelope.Stored stored = PasteEnvelope.read(envelope, JSON).orElseThrow();
        assertArrayEquals(spaced.getBytes(StandardCharsets.UTF_8), stored.adata());
        assertEquals(CT, stored.ct());
        assertTrue(PasteEnvelope.read("plain text".getBytes(StandardCharsets.UTF_8), JSON)
                .isEmpty());
        assertTrue(PasteEnvelope.read("{\"content\":\"x\"}".getBytes(StandardCharsets.UTF_8), JSON)
                .isEmpty());
    }
}
