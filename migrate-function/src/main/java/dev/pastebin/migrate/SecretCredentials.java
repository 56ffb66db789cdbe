package dev.pastebin.migrate;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;

/**
 * The username and password a database secret holds ({"username": ..., "password": ...}; an RDS-managed secret
 * has more fields, ignored).
 */
@Serdeable.Deserializable
record SecretCredentials(
        @Nullable String username, @Nullable String password) {

    /** Never the password: a record's generated toString would put it in any log line or message showing this. */
    @Override
    public String toString() {
        return "SecretCredentials[username=" + username + ", password=****]";
    }
}
