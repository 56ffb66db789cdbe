package dev.pastebin.core.config;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

/**
 * The fields of the database secret that matter; an RDS-managed secret also has engine, host, port, ...
 * which are ignored. Null when the secret lacks them, for {@link DatabaseSecret} (and the migration function) to reject.
 */
@Serdeable.Deserializable
public record DatabaseCredentials(
        @Nullable String username, @Nullable String password) {

    /** Never the password: a record's generated toString would put it in any log line or message showing this. */
    @Override
    public String toString() {
        return "DatabaseCredentials[username=" + username + ", password=****]";
    }
}
