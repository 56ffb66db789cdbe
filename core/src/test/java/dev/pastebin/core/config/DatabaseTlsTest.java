package dev.pastebin.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.config.DatabaseTlsProperties.TrustAnchor;
import io.micronaut.configuration.jdbc.hikari.DatasourceConfiguration;
import io.micronaut.context.exceptions.ConfigurationException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.postgresql.ssl.DefaultJavaSSLFactory;

/**
 * What {@link DatabaseTls} decides from the default datasource's URL as pgjdbc reads it. When TLS is required
 * (the template's setting), only a URL that ends up verifying the server's certificate and host name starts; a
 * second, weaker {@code sslmode} after the template's {@code verify-full} is what pgjdbc would use.
 */
class DatabaseTlsTest {

    private static final String DATABASE = "jdbc:postgresql://db.example.internal:5432/pastebin";

    @Test
    void aLaterWeakerSslmodeFailsTheStartWhenTlsIsRequired() {
        ConfigurationException failure = assertThrows(
                ConfigurationException.class,
                () -> required().applyTo(datasource(DATABASE + "?sslmode=verify-full&sslmode=prefer")));
        assertTrue(failure.getMessage().contains("sslmode=prefer"), failure.getMessage());
        assertTrue(failure.getMessage().contains("sslmode=verify-full"), failure.getMessage());
    }

    @Test
    void aUrlWithoutSslmodeOrWithVerifyCaFailsTheStartWhenTlsIsRequired() {
        for (String url : new String[] {
            DATABASE,
            DATABASE + "?sslmode=require",
            DATABASE + "?sslmode=verify-ca",
            DATABASE + "?ssl=true&sslmode=disable"
        }) {
            assertThrows(ConfigurationException.class, () -> required().applyTo(datasource(url)), url);
        }
    }

    @Test
    void verifyFullStartsWhenTlsIsRequiredWithTheChosenTrustAnchor() {
        for (String url : new String[] {
            DATABASE + "?sslmode=verify-full", DATABASE + "?sslmode=prefer&sslmode=verify-full", DATABASE + "?ssl=true"
        }) {
            DatasourceConfiguration datasource = required().applyTo(datasource(url));
            assertEquals(
                    DefaultJavaSSLFactory.class.getName(),
                    datasource.getDataSourceProperties().getProperty("sslfactory"),
                    url);
        }
    }

    @Test
    void withoutTheRequirementAUrlThatVerifiesNothingIsLeftAsItIs() {
        DatasourceConfiguration datasource = new DatabaseTls(
                        new DatabaseTlsProperties(TrustAnchor.JDK_TRUST_STORE, Path.of("unused.pem"), false))
                .applyTo(datasource(DATABASE));
        assertNull(datasource.getDataSourceProperties().getProperty("sslfactory"));
    }

    private static DatabaseTls required() {
        return new DatabaseTls(new DatabaseTlsProperties(TrustAnchor.JDK_TRUST_STORE, Path.of("unused.pem"), true));
    }

    private static DatasourceConfiguration datasource(String url) {
        DatasourceConfiguration datasource = new DatasourceConfiguration("default");
        datasource.setUrl(url);
        return datasource;
    }
}
