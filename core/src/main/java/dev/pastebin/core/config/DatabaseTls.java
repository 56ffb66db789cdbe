package dev.pastebin.core.config;

import io.micronaut.configuration.jdbc.hikari.DatasourceConfiguration;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.core.order.Ordered;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Properties;
import org.postgresql.Driver;
import org.postgresql.PGProperty;
import org.postgresql.jdbc.SslMode;
import org.postgresql.ssl.DefaultJavaSSLFactory;
import org.postgresql.util.PSQLException;

/**
 * Gives pgjdbc the trust anchor {@link DatabaseTlsProperties} names when the default datasource's URL asks it to
 * verify the server's certificate: {@code sslrootcert} (the CA bundle the Lambda artifact carries) or
 * {@code sslfactory} (the JDK's trust store). Without it pgjdbc looks for ~/.postgresql/root.crt, which no Lambda
 * has, and every connection fails.
 *
 * <p>A verifying URL whose trust anchor is missing or holds no certificate fails the start (Lambda's Init
 * error, once, with what to do) rather than every request with a 503. A URL that also names a trust anchor
 * itself fails too: one setting decides what is trusted. With {@link DatabaseTlsProperties#required()} (as the
 * template deploys), a URL that does not end up with verify-full fails the start: the template's pattern checks
 * for one {@code sslmode=verify-full}, and a later {@code sslmode} would win in pgjdbc. Otherwise a URL that
 * verifies nothing (the local run, the tests) is left as it is.
 *
 * <p>Runs before {@link DatabaseSecretCredentials}, which copies the datasource's properties into the
 * connections it opens.
 */
@Singleton
public class DatabaseTls implements BeanCreatedEventListener<DatasourceConfiguration>, Ordered {

    private final DatabaseTlsProperties tls;

    public DatabaseTls(DatabaseTlsProperties tls) {
        this.tls = tls;
    }

    @Override
    public int getOrder() {
        return HIGHEST_PRECEDENCE;
    }

    @Override
    public DatasourceConfiguration onCreated(BeanCreatedEvent<DatasourceConfiguration> event) {
        return applyTo(event.getBean());
    }

    DatasourceConfiguration applyTo(DatasourceConfiguration datasource) {
        if (!"default".equals(datasource.getName())) {
            return datasource;
        }
        // pgjdbc's own reading of the URL over the configured properties (URL parameters win, ssl=true alone
        // means verify-full), so what is checked here is what the driver will do.
        Properties effective = Driver.parseURL(datasource.getJdbcUrl(), datasource.getDataSourceProperties());
        if (effective == null && !tls.required()) {
            return datasource; // not a PostgreSQL URL: the driver will say so on the first connection
        }
        if (effective == null) {
            throw new ConfigurationException(
                    "datasources.default.url (the template's DatabaseUrl) is not a PostgreSQL JDBC URL");
        }
        SslMode mode;
        try {
            mode = SslMode.of(effective);
        } catch (PSQLException e) {
            throw new ConfigurationException("datasources.default.url: " + e.getMessage());
        }
        if (tls.required() && mode != SslMode.VERIFY_FULL) {
            throw new ConfigurationException(
                    "The database URL (datasources.default.url, the template's DatabaseUrl) ends up with"
                            + " sslmode=" + mode.value + " as pgjdbc reads it (the last sslmode in the URL wins), and"
                            + " pastebin.database.tls.required (the template sets it) asks for sslmode=verify-full: the server's"
                            + " certificate and host name verified. Give DatabaseUrl one sslmode, verify-full.");
        }
        if (!mode.verifyCertificate()) {
            return datasource;
        }
        for (PGProperty own : new PGProperty[] {PGProperty.SSL_ROOT_CERT, PGProperty.SSL_FACTORY}) {
            if (own.isPresent(effective)) {
                throw new ConfigurationException(
                        "datasources.default.url (the template's DatabaseUrl) sets " + own.getName()
                                + ": remove it. What the connection trusts is pastebin.database.tls.trust-anchor (the template's"
                                + " DatabaseTrustAnchor), the one setting for it.");
            }
        }
        switch (tls.trustAnchor()) {
            case CA_BUNDLE ->
                datasource.addDataSourceProperty(
                        PGProperty.SSL_ROOT_CERT.getName(),
                        checkedCaBundle(mode).toString());
            case JDK_TRUST_STORE ->
                datasource.addDataSourceProperty(
                        PGProperty.SSL_FACTORY.getName(), DefaultJavaSSLFactory.class.getName());
        }
        return datasource;
    }

    private Path checkedCaBundle(SslMode mode) {
        Path bundle = tls.caBundle();
        String problem;
        try (InputStream in = Files.newInputStream(bundle)) {
            if (!CertificateFactory.getInstance("X.509")
                    .generateCertificates(in)
                    .isEmpty()) {
                return bundle;
            }
            problem = "holds no PEM certificate";
        } catch (NoSuchFileException e) {
            problem = "does not exist";
        } catch (IOException | CertificateException e) {
            problem = "cannot be read as PEM certificates (" + e.getMessage() + ")";
        }
        throw new ConfigurationException("The database URL asks for sslmode=" + mode.value + ", and the trust anchor"
                + " (pastebin.database.tls.trust-anchor, the template's DatabaseTrustAnchor) is the CA bundle " + bundle
                + ", which " + problem + ". Every function artifact carries the repository's"
                + " infra/tls/database-ca-bundle.pem (AWS's RDS CAs) there: run sam build and sam deploy again from"
                + " the repository, or, for your own PostgreSQL, put its CA in that file first (infra/tls/README.md);"
                + " behind an RDS Proxy, deploy with DatabaseTrustAnchor=jdk-trust-store instead.");
    }
}
