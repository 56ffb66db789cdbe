package dev.pastebin.privatebin;

import dev.pastebin.core.paste.PasteProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.json.tree.JsonNode;
import jakarta.inject.Singleton;
import java.math.BigInteger;
import java.util.Base64;
import java.util.Set;
import java.util.zip.Deflater;

/**
 * Validates a posted paste as PrivateBin does (its {@code Request::getData}, {@code FormatV2::isValid} and
 * {@code Paste::_validate}): the keys {@code v}, {@code adata}, {@code ct} and a non-empty {@code meta} (any other
 * key of the body is ignored, as PrivateBin picks these four before it checks their set: pbcli sends an empty
 * {@code id} too); the cipher parameters (base64 IV and salt of bounded
 * length, more than 10,000 PBKDF2 iterations (and, unlike PrivateBin, at most 1,000,000: every reader derives the key), AES with a known key size, tag size, mode and compression); a
 * ciphertext that does not compress (PrivateBin's check that it is ciphertext, not text); {@code meta} with exactly
 * {@code expire}; a known formatter, and discussion and burn flags of 0 or 1. Differences, on purpose: a comment, or a
 * paste that asks for open discussion, is refused as PrivateBin refuses it with discussion disabled (this system
 * stores no comments); an expiry PrivateBin does not offer is refused instead of replaced by a default; the
 * ciphertext's limit follows from the paste limit (the stored envelope must fit it).
 */
@Singleton
class FormatV2 {

    /** What a paste is made of; a body without all four is not a paste (without {@code meta}: a comment). */
    static final Set<String> PASTE_KEYS = Set.of("v", "adata", "ct", "meta");

    static final Set<String> FORMATTERS = Set.of("plaintext", "syntaxhighlighting", "markdown");

    /**
     * Room in the stored envelope for everything but the ciphertext: {@code adata} (at most
     * {@link #MAX_ADATA_BYTES}; a client's is about 150) and the envelope's keys.
     */
    static final int ENVELOPE_RESERVE_BYTES = 1152;

    static final int MAX_ADATA_BYTES = 1024;

    private static final int MIN_ITERATIONS_EXCLUSIVE = 10_000;
    /**
     * Every reader's page derives the key with the creator's count: PrivateBin's clients use 100,000, and a count near
     * 2^31 would keep each reader's tab busy for minutes.
     */
    private static final int MAX_ITERATIONS = 1_000_000;

    private static final int MAX_IV_CHARS = 24;
    private static final int MAX_SALT_CHARS = 14;

    private final int maxCiphertextChars;

    FormatV2(PasteProperties paste) {
        this.maxCiphertextChars = paste.maxContentBytes() - ENVELOPE_RESERVE_BYTES;
    }

    /** The most base64 characters of ciphertext a paste may carry. */
    int maxCiphertextChars() {
        return maxCiphertextChars;
    }

    /** PrivateBin's answer to a ciphertext above the limit, in its words. */
    InvalidPasteDataException tooLarge() {
        return new InvalidPasteDataException(
                "Document is limited to " + (maxCiphertextChars / 1024) + " KiB of encrypted data.");
    }

    /** @throws InvalidPasteDataException with PrivateBin's message for what it refuses */
    EncryptedPasteRequest paste(PostedBody body) {
        JsonNode document = body.document();
        if (!body.members().names().containsAll(PASTE_KEYS)) {
            throw InvalidPasteDataException.invalidData();
        }
        JsonNode adata = document.get("adata");
        if (!adata.isArray() || adata.size() < 4) {
            throw InvalidPasteDataException.invalidData();
        }
        byte[] adataBytes = body.members().structure("adata").orElseThrow(InvalidPasteDataException::invalidData);
        if (adataBytes.length > MAX_ADATA_BYTES) {
            throw InvalidPasteDataException.invalidData();
        }
        JsonNode cipher = adata.get(0);
        JsonNode ct = document.get("ct");
        if (!cipher.isArray() || cipher.size() < 8 || !ct.isString()) {
            throw InvalidPasteDataException.invalidData();
        }
        String iv = string(cipher.get(0));
        String salt = string(cipher.get(1));
        if (iv == null || salt == null || iv.length() > MAX_IV_CHARS || salt.length() > MAX_SALT_CHARS) {
            throw InvalidPasteDataException.invalidData();
        }
        byte[] ciphertext = base64(ct.getStringValue());
        if (base64(iv).length == 0 || base64(salt).length == 0 || ciphertext.length == 0) {
            throw InvalidPasteDataException.invalidData();
        }
        JsonNode version = document.get("v");
        if (!version.isNumber() || version.getDoubleValue() < 2) {
            throw InvalidPasteDataException.invalidData();
        }
        Long iterations = integer(cipher.get(2));
        if (iterations == null
                || iterations <= MIN_ITERATIONS_EXCLUSIVE
                || iterations > MAX_ITERATIONS
                || !oneOf(integer(cipher.get(3)), 128, 192, 256)
                || !oneOf(integer(cipher.get(4)), 64, 96, 128)
                || !"aes".equals(string(cipher.get(5)))
                || !Set.of("ctr", "cbc", "gcm").contains(string(cipher.get(6)))
                || !Set.of("zlib", "none").contains(string(cipher.get(7)))) {
            throw InvalidPasteDataException.invalidData();
        }
        if (compresses(ciphertext)) {
            throw InvalidPasteDataException.invalidData();
        }
        JsonNode meta = document.get("meta");
        if (!meta.isObject() || meta.size() != 1 || meta.get("expire") == null) {
            throw InvalidPasteDataException.invalidData();
        }
        String expire = string(meta.get("expire"));
        PrivateBinExpiry expiry = PrivateBinExpiry.of(expire == null ? "" : expire)
                .orElseThrow(() -> new InvalidPasteDataException(
                        "Unknown expiry: meta.expire is one of " + PrivateBinExpiry.NAMES + "."));
        String formatter = string(adata.get(1));
        Long discussion = integer(adata.get(2));
        Long burn = integer(adata.get(3));
        if (formatter == null
                || !FORMATTERS.contains(formatter)
                || !oneOf(discussion, 0, 1)
                || !oneOf(burn, 0, 1)
                // open discussion: refused as PrivateBin refuses it when discussion is disabled
                || discussion == 1) {
            throw InvalidPasteDataException.invalidData();
        }
        if (ct.getStringValue().length() > maxCiphertextChars) {
            throw tooLarge();
        }
        return new EncryptedPasteRequest(adataBytes, ct.getStringValue(), expiry, burn == 1);
    }

    @Nullable
    private static String string(@Nullable JsonNode node) {
        return node != null && node.isString() ? node.getStringValue() : null;
    }

    /** A JSON integer as written (PHP's is_int): {@code 128.0} or {@code 1.28e2} are not. */
    @Nullable
    private static Long integer(@Nullable JsonNode node) {
        if (node == null || !node.isNumber()) {
            return null;
        }
        Number number = node.getNumberValue();
        if (number instanceof Integer || number instanceof Long || number instanceof Short || number instanceof Byte) {
            return number.longValue();
        }
        if (number instanceof BigInteger big && big.bitLength() < 64) {
            return big.longValue();
        }
        return null;
    }

    private static boolean oneOf(@Nullable Long value, long... allowed) {
        if (value == null) {
            return false;
        }
        for (long a : allowed) {
            if (value == a) {
                return true;
            }
        }
        return false;
    }

    /** Strict base64 (PHP's {@code base64_decode($s, true)}); anything else decodes to nothing. */
    private static byte[] base64(String value) {
        try {
            return Base64.getDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            return new byte[0];
        }
    }

    /**
     * PrivateBin's entropy check: {@code strlen($ct) > strlen(gzdeflate($ct))} refuses data that compresses, i.e.
     * is not ciphertext (raw DEFLATE at zlib's default level, as PHP's gzdeflate).
     */
    static boolean compresses(byte[] data) {
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        try {
            deflater.setInput(data);
            deflater.finish();
            byte[] buffer = new byte[8192];
            long compressed = 0;
            while (!deflater.finished()) {
                compressed += deflater.deflate(buffer);
                if (compressed >= data.length) {
                    return false;
                }
            }
            return compressed < data.length;
        } finally {
            deflater.end();
        }
    }
}
