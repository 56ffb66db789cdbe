package dev.pastebin.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SchemaRequestTest {

    static Map<String, Object> roleSecrets() {
        Map<String, Object> secrets = new HashMap<>();
        for (String role : SchemaRequest.ROLES) {
            secrets.put(role, "arn:aws:secretsmanager:eu-west-1:123456789012:secret:" + role);
        }
        return secrets;
    }

    @Test
    void anOwnerSecretAsksForAMigration() {
        SchemaRequest request = SchemaRequest.from(Map.of(
                "ServiceToken", "arn:fn",
                "OwnerSecretArn", "arn:owner",
                "RoleSecrets", roleSecrets(),
                "Release", "7"));
        assertTrue(request.migrates());
        assertEquals(Optional.of("arn:owner"), request.ownerSecretArn());
        assertEquals(SchemaRequest.ROLES, request.roleSecrets().keySet());
    }

    @Test
    void anEmptyOrMissingOwnerSecretAsksOnlyForACheck() {
        assertFalse(SchemaRequest.from(Map.of("OwnerSecretArn", "", "RoleSecrets", roleSecrets()))
                .migrates());
        assertFalse(SchemaRequest.from(Map.of("OwnerSecretArn", "  ", "RoleSecrets", roleSecrets()))
                .migrates());
        assertFalse(SchemaRequest.from(Map.of("RoleSecrets", roleSecrets())).migrates());
    }

    @Test
    void roleSecretsMustNameExactlyTheFiveRoles() {
        Map<String, Object> missing = roleSecrets();
        missing.remove("pastebin_sweeper");
        var e = assertThrows(
                IllegalArgumentException.class,
                () -> SchemaRequest.from(Map.of("OwnerSecretArn", "arn:owner", "RoleSecrets", missing)));
        assertTrue(e.getMessage().contains("missing [pastebin_sweeper]"), e.getMessage());

        Map<String, Object> unknown = roleSecrets();
        unknown.put("pastebin_admin", "arn:x");
        e = assertThrows(
                IllegalArgumentException.class,
                () -> SchemaRequest.from(Map.of("OwnerSecretArn", "arn:owner", "RoleSecrets", unknown)));
        assertTrue(e.getMessage().contains("unknown [pastebin_admin]"), e.getMessage());

        Map<String, Object> blank = roleSecrets();
        blank.put("pastebin_read", "");
        e = assertThrows(
                IllegalArgumentException.class,
                () -> SchemaRequest.from(Map.of("OwnerSecretArn", "arn:owner", "RoleSecrets", blank)));
        assertTrue(e.getMessage().contains("RoleSecrets.pastebin_read"), e.getMessage());
    }

    @Test
    void withoutRoleSecretsOrPropertiesTheRequestIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> SchemaRequest.from(Map.of("OwnerSecretArn", "arn:owner")));
        assertThrows(IllegalArgumentException.class, () -> SchemaRequest.from(null));
    }

    private static final String VERSION = "arn:aws:lambda:eu-west-1:123456789012:function:pastebin-Migrate-AbC:";

    @Test
    void anUpdateToAnOlderReleaseIsCloudFormationsRollback() {
        assertTrue(SchemaRequest.isRollback(Map.of("Release", VERSION + "6"), Map.of("Release", VERSION + "7")));
        assertTrue(SchemaRequest.isRollback(Map.of("Release", "9"), Map.of("Release", "10")), "numbers, not text");
        assertFalse(SchemaRequest.isRollback(Map.of("Release", VERSION + "7"), Map.of("Release", VERSION + "6")));
        assertFalse(SchemaRequest.isRollback(Map.of("Release", VERSION + "7"), Map.of("Release", VERSION + "7")));
    }

    @Test
    void withoutTwoReleaseVersionsNoUpdateIsARollback() {
        assertFalse(SchemaRequest.isRollback(Map.of("Release", "6"), null));
        assertFalse(SchemaRequest.isRollback(Map.of(), Map.of("Release", "7")));
        assertFalse(SchemaRequest.isRollback(Map.of("Release", "$LATEST"), Map.of("Release", "7")));
        assertFalse(SchemaRequest.isRollback(Map.of("Release", VERSION + "live"), Map.of("Release", VERSION + "7")));
    }
}
