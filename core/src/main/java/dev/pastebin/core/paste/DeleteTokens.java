package dev.pastebin.core.paste;

import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Deletion tokens: 256 random bits, base64url without padding, shown to the creator once. Only the token's
 * SHA-256 is stored, so a database leak gives nobody the power to delete; a fast hash is enough because the
 * token is random, not a password. The delete compares hashes in SQL: how long a comparison of SHA-256 digests
 * takes tells nothing that helps to find a token.
 */
@Singleton
public class DeleteTokens {

    private static final int TOKEN_BYTES = 32;

    private final SecureRandom random = new SecureRandom();

    /** A fresh token and the hash to store for it. */
    public Issued issue() {
        byte[] bytes = new byte[TOKEN_BYTES];
        random.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        return new Issued(token, hashOf(token));
    }

    public static String hashOf(String token) {
        return ContentHash.sha256Hex(token.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param token shown once in the 201
     * @param sha256 stored on the row
     */
    public record Issued(String token, String sha256) {}
}
