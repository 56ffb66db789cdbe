package dev.pastebin.core.paste;

import jakarta.inject.Singleton;
import java.security.SecureRandom;

/**
 * Short codes: base62 from {@link SecureRandom}, of the configured length (11 by default, 65.5 bits: the code is
 * the only secret of an unlisted paste). Every length a code was ever issued with is well-formed, {@link #LEGACY_LENGTH}
 * and {@link #MIN_LENGTH} up to today's, so the pastes of codes issued before the length was raised stay readable and
 * deletable (raise it, never lower it). Uniqueness is enforced by the primary key; a
 * collision is retried by the caller with a fresh code.
 */
@Singleton
public class ShortCodes {

    public static final String ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    /** The length of the codes issued before they grew to 64 bits and more (47.6 bits). */
    public static final int LEGACY_LENGTH = 8;
    /** The shortest length that can be configured (PasteProperties), and the default. */
    public static final int MIN_LENGTH = 11;

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

    /** True when {@code candidate} could have been issued: base62, {@link #LEGACY_LENGTH} or {@link #MIN_LENGTH} to today's length long. */
    public boolean isWellFormed(String candidate) {
        if (candidate == null
                || (candidate.length() != LEGACY_LENGTH
                        && (candidate.length() < MIN_LENGTH || candidate.length() > length))) {
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
                    "A short code is " + (length == MIN_LENGTH ? String.valueOf(length) : MIN_LENGTH + " to " + length)
                            + " (or, for older pastes, " + LEGACY_LENGTH + ") characters of 0-9, A-Z, a-z");
        }
        return candidate;
    }
}
