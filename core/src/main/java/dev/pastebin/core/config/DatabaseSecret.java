package dev.pastebin.core.config;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The database credentials a Secrets Manager secret holds, as last read: once when created (at start-up, so
 * before a SnapStart snapshot), then again only when PostgreSQL rejects them
 * ({@link #refreshAfterRejectionOf}). A rejection re-reads the secret at most once per
 * {@link #MIN_REREAD_INTERVAL}: while the secret holds a wrong password, Hikari keeps trying to connect, and
 * each attempt must not cost a GetSecretValue call. Thread-safe.
 *
 * <p>A rejection reads the AWSCURRENT version and, when that still holds the rejected credentials, the
 * AWSPENDING one: a single-user rotation changes the password in the database (its setSecret step) before it
 * makes the new version AWSCURRENT (finishSecret), and in between only AWSPENDING holds the password that works.
 */
final class DatabaseSecret {

    static final Duration MIN_REREAD_INTERVAL = Duration.ofSeconds(1);

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseSecret.class);

    private final String secretId;
    private final SecretValues values;
    private final ObjectMapper objectMapper;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile DatabaseCredentials current;
    private Instant lastRead;

    /**
     * Reads the secret now, so a missing or malformed secret fails the start-up, not the first request.
     *
     * @param values GetSecretValue calls on the secret
     */
    DatabaseSecret(String secretId, SecretValues values, ObjectMapper objectMapper, Clock clock) {
        this.secretId = secretId;
        this.values = values;
        this.objectMapper = objectMapper;
        this.clock = clock;
        this.lastRead = clock.instant();
        this.current = parse(values.current(), "AWSCURRENT");
    }

    DatabaseCredentials current() {
        return current;
    }

    /**
     * The credentials to connect with instead of {@code rejected}: the secret's AWSCURRENT version when it now
     * holds others, else its AWSPENDING version when there is one that differs (a rotation between setSecret
     * and finishSecret); they are used from now on. Empty when neither holds anything else (the password is
     * wrong), or when the secret was read less than {@link #MIN_REREAD_INTERVAL} ago. When
     * another connection attempt has already replaced {@code rejected}, its result is returned without a read.
     *
     * @throws RuntimeException when the secret cannot be read, or no longer holds a username and password
     */
    Optional<DatabaseCredentials> refreshAfterRejectionOf(DatabaseCredentials rejected) {
        lock.lock();
        try {
            // Identity: were these the very credentials in use, or have they been replaced since?
            @SuppressWarnings("ReferenceEquality")
            boolean replacedSince = current != rejected;
            if (replacedSince) {
                return Optional.of(current);
            }
            // Wall-clock time, not nanoTime: after a SnapStart restore it has moved on from the snapshot's read,
            // so the first rejection after a restore always re-reads.
            Instant now = clock.instant();
            if (now.isAfter(lastRead) && now.isBefore(lastRead.plus(MIN_REREAD_INTERVAL))) {
                return Optional.empty();
            }
            lastRead = now;
            DatabaseCredentials read = parse(values.current(), "AWSCURRENT");
            String stage = "AWSCURRENT";
            if (read.equals(rejected)) {
                // Between a single-user rotation's setSecret and finishSecret only AWSPENDING works.
                Optional<DatabaseCredentials> pending = values.pending()
                        .map(json -> parse(json, "AWSPENDING"))
                        .filter(credentials -> !credentials.equals(rejected));
                if (pending.isEmpty()) {
                    LOG.warn(
                            "PostgreSQL rejected the password of {} from secret {}, which still holds it",
                            rejected.username(),
                            secretId);
                    return Optional.empty();
                }
                read = pending.get();
                stage = "AWSPENDING";
            }
            // A wrong AWSPENDING (a rotation that has not reached the database yet) heals the same way: its
            // rejection re-reads AWSCURRENT, which then differs from it.
            current = read;
            LOG.info(
                    "PostgreSQL rejected the password of {}; secret {} holds new credentials ({}), used from now on",
                    rejected.username(),
                    secretId,
                    stage);
            return Optional.of(read);
        } finally {
            lock.unlock();
        }
    }

    private DatabaseCredentials parse(@Nullable String json, String stage) {
        if (json == null) {
            throw new IllegalStateException("secret " + secretId + " has no string value (" + stage
                    + "): expected JSON with username and password");
        }
        DatabaseCredentials credentials;
        try {
            credentials = objectMapper.readValue(json, DatabaseCredentials.class);
        } catch (IOException e) {
            // Not the parser's exception as the cause: its message may quote the input, i.e. the password.
            throw new IllegalStateException("secret " + secretId + " is not JSON with username and password (" + stage
                    + ", " + e.getClass().getSimpleName() + ")");
        }
        if (credentials == null || isBlank(credentials.username()) || isBlank(credentials.password())) {
            throw new IllegalStateException("secret " + secretId + " lacks a username or password (" + stage + ")");
        }
        return credentials;
    }

    /** The secret's string values, one GetSecretValue call each. */
    interface SecretValues {

        /** The AWSCURRENT version's. */
        @Nullable
        String current();

        /** The AWSPENDING version's; empty when no version has that stage (no rotation under way). */
        Optional<String> pending();
    }

    private static boolean isBlank(@Nullable String value) {
        return value == null || value.isBlank();
    }
}
