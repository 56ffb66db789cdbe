package dev.pastebin.privatebin;

/**
 * A paste as a PrivateBin client posted it, validated ({@link FormatV2}).
 *
 * @param adata            the authenticated data exactly as sent: cipher parameters, formatter, open discussion,
 *                         burn after reading
 * @param ct               the ciphertext, base64
 * @param expiry           its {@code meta.expire}
 * @param burnAfterReading {@code adata[3] == 1}: read once
 */
record EncryptedPasteRequest(byte[] adata, String ct, PrivateBinExpiry expiry, boolean burnAfterReading) {}
