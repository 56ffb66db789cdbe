package dev.pastebin.core.paste;

import dev.pastebin.core.config.PasteProperties;
import jakarta.inject.Singleton;

import java.security.SecureRandom;

/**
 * Short codes: base62 from {@link SecureRandom}, of the configured length (11 by default, 65.5 bits: the code is
 * the only secret of an unlisted paste). Every length from {@link #LEGACY_LENGTH} to today's is well-formed, so the
 * pastes of codes issued before the length was raised stay readable and deletable (raise it, never lower it). Uniqueness is enforced by the primary key; a
 * collision is retried by the caller with a fresh code.
 */
@Singleton
public class ShortCodes {

    public static final String ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    /** The length of the codes issued before they grew to 64 bits and more (47.6 bits). */
    public static final int LEGACY_LENGTH = 8;

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

    /** True when {@code candidate} could have been issued: {@link #LEGACY_LENGTH} to today's length of base62 characters. */
    public boolean isWellFormed(String candidate) {
        if (candidate == null || candidate.length() < LEGACY_LENGTH || candidate.length() > length) {
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

    /** The short code of a request's path, refused as malformed before anything is looked up. */
    public String requireWellFormed(String candidate) {
        if (!isWellFormed(candidate)) {
            throw new MalformedShortCodeException(
                    "A short code is " + LEGACY_LENGTH + " to " + length + " characters of 0-9, A-Z, a-z");
        }
        return candidate;
    }
}
