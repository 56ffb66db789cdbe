package dev.pastebin.privatebin;

import io.micronaut.core.annotation.Nullable;

/**
 * A stored PrivateBin paste as a read answers it.
 *
 * @param id         its short code
 * @param adata      the authenticated data exactly as its client sent it
 * @param ct         the ciphertext, base64
 * @param timeToLive seconds until it expires; {@code null} when it does not
 */
record EncryptedPaste(
        String id, byte[] adata, String ct, @Nullable Long timeToLive) {}
