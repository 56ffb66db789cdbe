package dev.pastebin.infra.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The RDS CA bundle the repository carries (infra/tls/database-ca-bundle.pem, infra/tls/README.md), which every
 * function artifact packs: every certificate in it parses, is a CA, and stays valid for at least a year more. When
 * this fails, refresh the bundle (infra/tls/refresh-ca-bundle.sh) before a function meets an expired CA.
 */
class DatabaseCaBundleTest {

    static final Path BUNDLE = InfraTemplate.INFRA.resolve("tls/database-ca-bundle.pem");

    @Test
    void everyCertificateIsACaValidForAtLeastAnotherYear() throws Exception {
        Collection<? extends Certificate> certificates;
        try (InputStream in = Files.newInputStream(BUNDLE)) {
            certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
        }
        // the text between certificates would be silently skipped: the file is nothing but certificates
        assertEquals(
                certificates.size(),
                Files.readString(BUNDLE).split("-----BEGIN CERTIFICATE-----", -1).length - 1,
                "every PEM block of " + BUNDLE + " parses as a certificate");
        assertTrue(certificates.size() >= 3, BUNDLE + " holds AWS's RDS CAs: " + certificates.size());
        Instant aYearFromNow = ZonedDateTime.now(ZoneOffset.UTC).plusYears(1).toInstant();
        List<String> expiring = certificates.stream()
                .map(X509Certificate.class::cast)
                .filter(certificate -> certificate.getNotAfter().toInstant().isBefore(aYearFromNow))
                .map(certificate -> certificate.getSubjectX500Principal().getName() + " (expires "
                        + certificate.getNotAfter().toInstant() + ")")
                .toList();
        assertTrue(
                expiring.isEmpty(),
                "refresh infra/tls/database-ca-bundle.pem (infra/tls/README.md): these expire within a year: "
                        + expiring);
        List<String> notCas = certificates.stream()
                .map(X509Certificate.class::cast)
                .filter(certificate -> certificate.getBasicConstraints() < 0)
                .map(certificate -> certificate.getSubjectX500Principal().getName())
                .toList();
        assertTrue(notCas.isEmpty(), "a trust anchor is a CA certificate: " + notCas);
    }
}
