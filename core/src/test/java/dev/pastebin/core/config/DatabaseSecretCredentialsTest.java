package dev.pastebin.core.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.micronaut.serde.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The secret's JSON as RDS writes it (more keys than the two that matter) maps onto the credentials. */
class DatabaseSecretCredentialsTest {

    private final ObjectMapper objectMapper = ObjectMapper.getDefault();

    @Test
    void anRdsManagedSecretYieldsItsUsernameAndPassword() throws Exception {
        var credentials = objectMapper.readValue("""
                {"engine":"postgres","host":"db.example.internal","port":5432,"username":"app","password":"s3cr3t!\\"x","dbname":"pastebin","dbInstanceIdentifier":"pastebin"}""", DatabaseCredentials.class);
        assertEquals("app", credentials.username());
        assertEquals("s3cr3t!\"x", credentials.password());
    }

    @Test
    void aMissingPasswordIsNullForTheListenerToReject() throws Exception {
        var credentials = objectMapper.readValue("{\"username\":\"app\"}", DatabaseCredentials.class);
        assertNull(credentials.password());
    }

    @Test
    void theCredentialsNeverPrintTheirPassword() throws Exception {
        var credentials =
                objectMapper.readValue("{\"username\":\"app\",\"password\":\"s3cr3t\"}", DatabaseCredentials.class);
        assertFalse(credentials.toString().contains("s3cr3t"), credentials.toString());
    }
}
