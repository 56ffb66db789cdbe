package dev.pastebin.core.support;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * PrivateBin's format v2 as its clients encrypt and decrypt it, for tests: PBKDF2-HMAC-SHA256 of the key (plus an
 * optional password) and AES-256-GCM whose additional data is {@code adata}'s exact JSON text; the plaintext is
 * {@code {"paste": …}}, raw-deflated for {@code zlib}. Decrypting with the adata a read answered proves the server
 * gave it back byte for byte: a changed byte fails GCM's tag check. In core's test support because both
 * privatebin-function's tests and the browser tests (infra) build pastes with it.
 */
public final class PrivateBinClientCrypto {

    private static final int ITERATIONS = 10_001;

    private static final SecureRandom RANDOM = new SecureRandom();

    private static final String BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

    private PrivateBinClientCrypto() {}

    /** What a client posts, and the key its link would carry. */
    public record Sealed(String body, byte[] key, String adata, byte[] iv, byte[] salt, String password) {

        /** The key as a link's fragment carries it: base58 (Bitcoin's alphabet, a leading zero byte as '1'). */
        public String linkKey() {
            StringBuilder digits = new StringBuilder();
            for (BigInteger n = new BigInteger(1, key); n.signum() > 0; n = n.divide(BigInteger.valueOf(58))) {
                digits.append(BASE58.charAt(n.mod(BigInteger.valueOf(58)).intValue()));
            }
            for (int i = 0; i < key.length && key[i] == 0; i++) {
                digits.append(BASE58.charAt(0));
            }
            return digits.reverse().toString();
        }
    }

    /**
     * @param adataFormat {@code String.format} pattern of adata's JSON text, with {@code %1$s} the IV, {@code %2$s}
     *                    the salt and {@code %3$d} the iterations, so a test can choose its spacing and spelling
     */
    public static Sealed seal(String text, String adataFormat, String expire, String password) throws Exception {
        return sealPlaintext(
                ("{\"paste\":\"" + text + "\"}").getBytes(StandardCharsets.UTF_8), adataFormat, expire, password);
    }

    /** A client's paste with the usual adata: {@code [[iv, salt, iterations, 256, 128, "aes", "gcm", "zlib"], …]}. */
    public static Sealed seal(String text, String expire, boolean burn) throws Exception {
        return seal(text, usualAdata(burn), expire, "");
    }

    /**
     * A paste with the usual adata whose plaintext is {@code plaintext} as given, not {@code {"paste": …}}: what a
     * client that is not one could send (a deflate bomb).
     */
    public static Sealed sealPlaintext(byte[] plaintext, String expire, boolean burn) throws Exception {
        return sealPlaintext(plaintext, usualAdata(burn), expire, "");
    }

    private static String usualAdata(boolean burn) {
        return "[[\"%1$s\",\"%2$s\",%3$d,256,128,\"aes\",\"gcm\",\"zlib\"],\"plaintext\",0," + (burn ? 1 : 0) + "]";
    }

    private static Sealed sealPlaintext(byte[] plaintext, String adataFormat, String expire, String password)
            throws Exception {
        byte[] key = random(32);
        byte[] iv = random(16);
        byte[] salt = random(8);
        String adata = adataFormat.formatted(b64(iv), b64(salt), ITERATIONS);
        byte[] plain = plaintext;
        if (adata.contains("\"zlib\"")) {
            plain = deflate(plain);
        }
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(
                Cipher.ENCRYPT_MODE,
                new SecretKeySpec(derive(key, password, salt), "AES"),
                new GCMParameterSpec(128, iv));
        cipher.updateAAD(adata.getBytes(StandardCharsets.UTF_8));
        String ct = b64(cipher.doFinal(plain));
        String body =
                "{\"v\":2,\"adata\":" + adata + ",\"ct\":\"" + ct + "\",\"meta\":{\"expire\":\"" + expire + "\"}}";
        return new Sealed(body, key, adata, iv, salt, password);
    }

    /**
     * The paste's JSON plaintext, decrypted with {@code adata} and {@code ct} as the server answered them; throws
     * when adata is not, byte for byte, what was sealed.
     */
    public static String open(Sealed sealed, byte[] adata, String ct) throws Exception {
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(
                Cipher.DECRYPT_MODE,
                new SecretKeySpec(derive(sealed.key(), sealed.password(), sealed.salt()), "AES"),
                new GCMParameterSpec(128, sealed.iv()));
        cipher.updateAAD(adata);
        byte[] plain = cipher.doFinal(Base64.getDecoder().decode(ct));
        return new String(sealed.adata().contains("\"zlib\"") ? inflate(plain) : plain, StandardCharsets.UTF_8);
    }

    public static byte[] random(int bytes) {
        byte[] b = new byte[bytes];
        RANDOM.nextBytes(b);
        return b;
    }

    public static String b64(byte[] bytes) {
        return Base64.getEncoder().encodeToString(bytes);
    }

    /** PBKDF2-HMAC-SHA256 over raw bytes (the JDK's PBEKeySpec takes characters, the key is bytes). */
    private static byte[] derive(byte[] key, String password, byte[] salt) throws GeneralSecurityException {
        byte[] secret = ByteBuffer.allocate(key.length + password.getBytes(StandardCharsets.UTF_8).length)
                .put(key)
                .put(password.getBytes(StandardCharsets.UTF_8))
                .array();
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(secret, "HmacSHA256"));
        mac.update(salt);
        byte[] u = mac.doFinal(new byte[] {0, 0, 0, 1});
        byte[] result = u.clone();
        for (int i = 1; i < ITERATIONS; i++) {
            u = mac.doFinal(u);
            for (int j = 0; j < result.length; j++) {
                result[j] ^= u[j];
            }
        }
        return result;
    }

    private static byte[] deflate(byte[] data) {
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        deflater.setInput(data);
        deflater.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        while (!deflater.finished()) {
            out.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        return out.toByteArray();
    }

    private static byte[] inflate(byte[] data) throws DataFormatException {
        Inflater inflater = new Inflater(true);
        inflater.setInput(data);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        while (!inflater.finished()) {
            int n = inflater.inflate(buffer);
            if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                break;
            }
            out.write(buffer, 0, n);
        }
        inflater.end();
        return out.toByteArray();
    }
}
