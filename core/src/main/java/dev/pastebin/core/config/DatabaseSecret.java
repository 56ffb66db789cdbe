package dev.pastebin.core.config;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.ObjectMapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The database credentials a Secrets Manager secret holds, as last read: once when created (at start-up, so
 * before a SnapStart snapshot), then again only when PostgreSQL rejects them
 * ({@link #refreshAfterRejectionOf}). A rejection re-reads the secret at most once per
 * {@link #MIN_REREAD_INTERVAL}: while the secret holds a wrong password, Hikari keeps trying to connect, and
 * each attempt must not cost a GetSecretValue call. Thread-safe.
 */
final class DatabaseSecret {

    static final Duration MIN_REREAD_INTERVAL = Duration.ofSeconds(1);

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseSecret.class);

    private final String secretId;
    private final Supplier<String> secretString;
    private final ObjectMapper objectMapper;
    private final Clock clock;
    private final ReentrantLock lock = new ReentrantLock();
    private volatile DatabaseCredentials current;
    private Instant lastRead;

    /**
     * Reads the secret now, so a missing or malformed secret fails the start-up, not the first request.
     *
     * @param secretString one GetSecretValue call: the secret's string value
     */
    DatabaseSecret(String secretId, Supplier<String> secretString, ObjectMapper objectMapper, Clock clock) {
        this.secretId = secretId;
        this.secretString = secretString;
        this.objectMapper = objectMapper;
        this.clock = clock;
        this.lastRead = clock.instant();
        this.current = read();
    }

    DatabaseCredentials current() {
        return current;
    }

    /**
     * The credentials to connect with instead of {@code rejected}: the secret's, when it now holds others.
     * Empty when it still holds {@code rejected} (the password is wrong, or a rotation has changed the
     * database but not yet the secret), or when it was read less than {@link #MIN_REREAD_INTERVAL} ago. When
     * another connection attempt has already replaced {@code rejected}, its result is returned without a read.
     *
     * @throws RuntimeException when the secret cannot be read, or no longer holds a username and password
     */
    Optional<DatabaseCredentials> refreshAfterRejectionOf(DatabaseCredentials rejected) {
        lock.lock();
        try {
            if (current != rejected) {
                return Optional.of(current);
            }
            // Wall-clock time, not nanoTime: after a SnapStart restore it has moved on from the snapshot's read,
            // so the first rejection after a restore always re-reads.
            Instant now = clock.instant();
            if (now.isAfter(lastRead) && now.isBefore(lastRead.plus(MIN_REREAD_INTERVAL))) {
                return Optional.empty();
            }
            lastRead = now;
            DatabaseCredentials read = read();
            if (read.equals(rejected)) {
                LOG.warn("PostgreSQL rejected the password of {} from secret {}, which still holds it",
                        rejected.username(), secretId);
                return Optional.empty();
            }
            current = read;
            LOG.info("PostgreSQL rejected the password of {}; secret {} holds new credentials, used from now on",
                    rejected.username(), secretId);
            return Optional.of(read);
        } finally {
            lock.unlock();
        }
    }

    private DatabaseCredentials read() {
        String json = secretString.get();
        if (json == null) {
            throw new IllegalStateException("secret " + secretId + " has no string value: expected JSON with username and password");
        }
        DatabaseCredentials credentials;
        try {
            credentials = objectMapper.readValue(json, DatabaseCredentials.class);
        } catch (IOException e) {
            // Not the parser's exception as the cause: its message may quote the input, i.e. the password.
            throw new IllegalStateException("secret " + secretId + " is not JSON with username and password ("
                    + e.getClass().getSimpleName() + ")");
        }
        if (credentials == null || isBlank(credentials.username()) || isBlank(credentials.password())) {
            throw new IllegalStateException("secret " + secretId + " lacks a username or password");
        }
        return credentials;
    }

    private static boolean isBlank(@Nullable String value) {
        return value == null || value.isBlank();
    }
}
