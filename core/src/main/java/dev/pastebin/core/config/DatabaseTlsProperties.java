package dev.pastebin.core.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import java.nio.file.Path;

/**
 * What the functions trust when the database URL asks pgjdbc to verify the server's certificate
 * ({@code sslmode=verify-ca} or {@code verify-full}; the template's {@code DatabaseUrl} always does). Applied by
 * {@link DatabaseTls}; a URL that verifies nothing (the local run, the tests) ignores it.
 *
 * @param trustAnchor {@code ca-bundle}: the CAs in {@link #caBundle} (an RDS or Aurora endpoint: their CAs are
 *                    not in the JDK's trust store); {@code jdk-trust-store}: the JDK's CAs (an RDS Proxy
 *                    endpoint, whose ACM certificate chains to a public CA). The template's
 *                    {@code DatabaseTrustAnchor}.
 * @param caBundle    a PEM file of CA certificates. Default: {@link #PACKED_CA_BUNDLE}, where the Lambda artifact carries
 *                    the repository's infra/tls/database-ca-bundle.pem (AWS's RDS CAs).
 * @param required    the database URL must end up with {@code sslmode=verify-full} as pgjdbc reads it (the last
 *                    {@code sslmode} wins), else the start fails. The template sets it; locally it is off.
 */
@ConfigurationProperties("pastebin.database.tls")
public record DatabaseTlsProperties(
        @Bindable(defaultValue = "ca-bundle") TrustAnchor trustAnchor,

        @Bindable(defaultValue = DatabaseTlsProperties.PACKED_CA_BUNDLE)
        Path caBundle,

        @Bindable(defaultValue = "false") boolean required) {

    /** Where Lambda finds the bundle infra/lambda-zip.xml packs (the artifact is unpacked under /var/task). */
    public static final String PACKED_CA_BUNDLE = "/var/task/tls/database-ca-bundle.pem";

    public enum TrustAnchor {
        CA_BUNDLE,
        JDK_TRUST_STORE
    }
}
