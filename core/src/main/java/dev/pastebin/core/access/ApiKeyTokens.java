package dev.pastebin.core.access;

import com.google.re2j.Pattern;
import dev.pastebin.core.paste.ContentHash;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * API keys of a private instance (docs/operating.md, "API keys"): {@code pb_} and 32 random bytes, base64url without
 * padding, shown to the operator once by {@code infra/admin keys create}. Only the key's SHA-256 is stored, as for
 * deletion tokens: the key is random, not a password, so a fast hash is enough, and a database leak gives nobody a
 * key. The prefix lets a secret scanner (and a person) tell a key from any other token.
 */
@Singleton
public class ApiKeyTokens {

    public static final String PREFIX = "pb_";

    private static final int KEY_BYTES = 32;
    private static final Pattern FORMAT = Pattern.compile("pb_[A-Za-z0-9_-]{43}");

    private final SecureRandom random = new SecureRandom();

    /** A fresh key and the hash to store for it. */
    public Issued issue() {
        byte[] bytes = new byte[KEY_BYTES];
        random.nextBytes(bytes);
        String key = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        return new Issued(key, hashOf(key));
    }

    public static String hashOf(String key) {
        return ContentHash.sha256Hex(key.getBytes(StandardCharsets.US_ASCII));
    }

    /** Whether {@code key} has the shape of a key this system issues (nothing is looked up for one that has not). */
    public static boolean isWellFormed(String key) {
        return FORMAT.matcher(key).matches();
    }

    /**
     * @param key    shown once
     * @param sha256 stored in {@code api_keys.key_sha256}
     */
    public record Issued(String key, String sha256) {}
}
