package dev.pastebin.core.paste;

import dev.pastebin.core.config.PasteProperties;
import dev.pastebin.core.http.ApiErrorCode;
import dev.pastebin.core.http.ApiException;
import jakarta.inject.Singleton;

import java.security.SecureRandom;

/**
 * Short codes: base62 from {@link SecureRandom}, fixed length. Uniqueness is enforced by the primary key;
 * a collision is retried by the caller with a fresh code.
 */
@Singleton
public class ShortCodes {

    public static final String ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    private final SecureRandom random = new SecureRandom();
    private final int length;

    public ShortCodes(PasteProperties properties) {
        this.length = properties.shortCodeLength();
    }

    public String next() {
        char[] code = new char[length];
        for (int i = 0; i < length; i++) {
            code[i] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
        }
        return new String(code);
    }

    /** True when {@code candidate} could have been issued: the right length and only base62 characters. */
    public boolean isWellFormed(String candidate) {
        if (candidate == null || candidate.length() != length) {
            return false;
        }
        for (int i = 0; i < candidate.length(); i++) {
            char c = candidate.charAt(i);
            boolean base62 = (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
            if (!base62) {
                return false;
            }
        }
        return true;
    }

    /** The short code of a request's path, or 400 MALFORMED_SHORT_CODE before anything is looked up. */
    public String requireWellFormed(String candidate) {
        if (!isWellFormed(candidate)) {
            throw new ApiException(ApiErrorCode.MALFORMED_SHORT_CODE,
                    "A short code is " + length + " characters of 0-9, A-Z, a-z");
        }
        return candidate;
    }
}
