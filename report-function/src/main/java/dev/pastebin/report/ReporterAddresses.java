package dev.pastebin.report;

import dev.pastebin.api.http.EdgeRequests;
import io.micronaut.context.annotation.Context;
import io.micronaut.http.HttpRequest;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import software.amazon.awssdk.services.secretsmanager.SecretsManagerClient;

/**
 * The reporter's address as it is stored: HMAC-SHA-256 with the stack's key, in hex. Reports from one address share a
 * hash, so the operator can tell one persistent reporter from many; the address itself is never stored, and without
 * the key the hash cannot be reversed by hashing every address. With it, it can: an IPv4 address is one of 2^32, so
 * the key is a secret of its own (docs/design.md, "Abuse reports"), read here once, at start, with one GetSecretValue
 * on the secret {@code pastebin.report.address-key-secret-id} names, as core's DatabaseSecretCredentials reads the
 * database's. A key in the configuration would be in the function's environment, which
 * {@code lambda:GetFunctionConfiguration} shows to more principals than GetSecretValue on that one secret. Read at
 * start ({@link Context}), so that a missing or unreadable secret fails the function's Init, not a report.
 */
@Context
@Singleton
class ReporterAddresses {

    private static final String HMAC = "HmacSHA256";
    private final SecretKeySpec key;

    ReporterAddresses(ReportProperties properties, SecretsManagerClient secretsManager) {
        String secretId = properties.addressKeySecretId();
        String value = secretsManager.getSecretValue(b -> b.secretId(secretId)).secretString();
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("the secret " + secretId + " holds no key (an empty or binary value)");
        }
        this.key = new SecretKeySpec(value.getBytes(StandardCharsets.UTF_8), HMAC);
    }

    String hashOf(HttpRequest<?> request) {
        return hash(EdgeRequests.clientAddress(request));
    }

    String hash(String address) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(key);
            return HexFormat.of().formatHex(mac.doFinal(address.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
