package dev.pastebin.core.failure;

import io.micronaut.core.annotation.Nullable;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertPathValidatorException.BasicReason;
import java.security.cert.Certificate;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.security.cert.X509Certificate;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Why a database connection could not be opened, in the words of the settings an operator changes: a failure
 * whose cause chain holds one of the shapes pgjdbc and the JDK's TLS stack throw for a misconfiguration (a trust
 * anchor without the server's CA, a certificate for another host name, an expired server certificate, a refused
 * password) is explained; anything else (the server down, a timeout) is not, and the caller logs what it has.
 * Pure: it only reads the chain, so a log line, a 503's log and a deploy's failure reason all say the same.
 * Never meant for clients: it names settings and hosts.
 */
public final class DatabaseConnectionDiagnosis {

    /** PostgreSQL's invalid_password: the role exists and the password is wrong. */
    static final String INVALID_PASSWORD = "28P01";

    /** pgjdbc's words when the certificate does not name the host of the URL (MakeSSL.verifyPeerName). */
    private static final Pattern HOST_NAME_NOT_VERIFIED = Pattern.compile("The hostname (\\S+) could not be verified");

    private static final Pattern USER_IN_PASSWORD_FAILURE =
            Pattern.compile("password authentication failed for user \"([^\"]*)\"");

    private static final int MAX_CAUSE_DEPTH = 32;

    private DatabaseConnectionDiagnosis() {}

    /**
     * The root cause of {@code failure} (anywhere in its cause chain) and the setting to check, or empty when it
     * is none of the misconfigurations this knows.
     */
    public static Optional<String> explain(Throwable failure) {
        List<Throwable> chain = causes(failure);
        // The most specific first: an expired certificate also fails the path, a refused password is after TLS.
        // The deepest: Hikari's timeout copies the SQLSTATE of pgjdbc's failure, whose message names the user.
        SQLException refused = null;
        for (Throwable t : chain) {
            if (t instanceof SQLException sql && INVALID_PASSWORD.equals(sql.getSQLState())) {
                refused = sql;
            }
        }
        if (refused != null) {
            return Optional.of(refusedPassword(refused));
        }
        for (Throwable t : chain) {
            if (t instanceof CertPathValidatorException invalid && invalid.getReason() == BasicReason.EXPIRED) {
                return Optional.of(expired(certificateAt(invalid), chain));
            }
            if (t instanceof CertificateExpiredException) {
                return Optional.of(expired(null, chain));
            }
            if (t instanceof CertificateNotYetValidException
                    || (t instanceof CertPathValidatorException invalid
                            && invalid.getReason() == BasicReason.NOT_YET_VALID)) {
                return Optional.of("the database server's certificate is not valid yet (its notBefore is in the"
                        + " future, or this machine's clock is behind): fix the server's certificate or the clock;"
                        + " DatabaseTrustAnchor is not the cause");
            }
        }
        for (Throwable t : chain) {
            Matcher host = t instanceof SQLException && t.getMessage() != null
                    ? HOST_NAME_NOT_VERIFIED.matcher(t.getMessage())
                    : null;
            if (host != null && host.find()) {
                return Optional.of(wrongHost(host.group(1)));
            }
        }
        for (Throwable t : chain) {
            if (t instanceof CertPathBuilderException
                    || (t instanceof CertPathValidatorException invalid
                            && invalid.getReason() == CertPathValidatorException.BasicReason.UNSPECIFIED
                            && String.valueOf(invalid.getMessage()).contains("trust anchor"))) {
                return Optional.of(untrusted());
            }
        }
        return Optional.empty();
    }

    private static String untrusted() {
        return "the database server's certificate does not chain to a CA the function trusts (no trust anchor for"
                + " it): check DatabaseTrustAnchor (pastebin.database.tls.trust-anchor) and, with ca-bundle, the CA"
                + " bundle (pastebin.database.tls.ca-bundle: infra/tls/database-ca-bundle.pem, packed into every"
                + " function): it must hold the CA that signed the certificate of DatabaseUrl's server"
                + " (an RDS Proxy endpoint needs jdk-trust-store)";
    }

    private static String wrongHost(String host) {
        return "the database server's certificate is not for the host name " + host + " that DatabaseUrl"
                + " (datasources.default.url) connects to: use a host name the certificate names (for RDS or"
                + " Aurora the instance, cluster or proxy endpoint, not an IP address or an alias of it);"
                + " the trust anchor is not the cause";
    }

    private static String expired(@Nullable X509Certificate certificate, List<Throwable> chain) {
        String which = "";
        String when = "";
        if (certificate != null) {
            which = " (" + certificate.getSubjectX500Principal().getName() + ")";
            when = " at " + certificate.getNotAfter().toInstant();
        } else {
            for (Throwable t : chain) {
                if (t instanceof CertificateExpiredException expired && expired.getMessage() != null) {
                    when = " (" + expired.getMessage() + ")";
                }
            }
        }
        return "the database server's certificate" + which + " expired" + when + ": renew it on the server"
                + " (RDS or Aurora: rotate the instance to a current CA such as rds-ca-rsa2048-g1); the trust"
                + " anchor (DatabaseTrustAnchor) is not the cause";
    }

    private static String refusedPassword(SQLException refused) {
        Matcher user = USER_IN_PASSWORD_FAILURE.matcher(String.valueOf(refused.getMessage()));
        String who = user.find() ? " of user \"" + user.group(1) + "\"" : "";
        return "the database refused the password" + who + " (SQLSTATE " + INVALID_PASSWORD + "): check the"
                + " function's database secret (PASTEBIN_DATABASE_SECRET_ID, the template's <Function>DatabaseSecretArn):"
                + " its username and password must be the role's current ones";
    }

    private static @Nullable X509Certificate certificateAt(CertPathValidatorException invalid) {
        if (invalid.getCertPath() == null || invalid.getIndex() < 0) {
            return null;
        }
        List<? extends Certificate> certificates = invalid.getCertPath().getCertificates();
        return invalid.getIndex() < certificates.size()
                        && certificates.get(invalid.getIndex()) instanceof X509Certificate x509
                ? x509
                : null;
    }

    private static List<Throwable> causes(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = failure; t != null && chain.size() < MAX_CAUSE_DEPTH && seen.add(t); t = t.getCause()) {
            chain.add(t);
            if (t instanceof SQLException sql && sql.getNextException() != null) {
                chain.add(sql.getNextException());
            }
        }
        return chain;
    }
}
