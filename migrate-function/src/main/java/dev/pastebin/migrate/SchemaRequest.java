package dev.pastebin.migrate;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a Create or Update of the {@code Custom::DatabaseSchema} resource asks for, read from its properties:
 * {@code OwnerSecretArn} (the secret of the role that owns the schema, or "" when the operator migrates by hand)
 * and {@code RoleSecrets} (each function's role name and the ARN of its secret). {@code Release} only makes
 * CloudFormation send an Update when the function's code changes; nothing here reads it.
 *
 * @param ownerSecretArn empty: only check that the schema is current (a database managed by hand)
 * @param roleSecrets    role name to secret ARN, exactly {@link #ROLES}
 */
public record SchemaRequest(Optional<String> ownerSecretArn, Map<String, String> roleSecrets) {

    /** The database roles of the functions: the roles file (core's db/roles.sql) grants each its privileges. */
    public static final Set<String> ROLES = Set.of(
            "pastebin_create",
            "pastebin_read",
            "pastebin_remove",
            "pastebin_upload",
            "pastebin_sweeper",
            "pastebin_report",
            "pastebin_moderation",
            "pastebin_privatebin");

    public SchemaRequest {
        roleSecrets = Map.copyOf(roleSecrets);
    }

    /**
     * @throws IllegalArgumentException naming the property that is missing or wrong
     */
    public static SchemaRequest from(Map<String, Object> properties) {
        if (properties == null) {
            throw new IllegalArgumentException(
                    "the resource has no properties: it needs OwnerSecretArn and RoleSecrets");
        }
        Object owner = properties.get("OwnerSecretArn");
        if (owner != null && !(owner instanceof String)) {
            throw new IllegalArgumentException("OwnerSecretArn must be a secret's ARN or \"\"");
        }
        if (!(properties.get("RoleSecrets") instanceof Map<?, ?> roles)) {
            throw new IllegalArgumentException(
                    "RoleSecrets must map each of " + new TreeSet<>(ROLES) + " to the ARN of its secret");
        }
        Map<String, String> secrets = new TreeMap<>();
        roles.forEach((role, arn) -> {
            if (!(arn instanceof String text) || text.isBlank()) {
                throw new IllegalArgumentException("RoleSecrets." + role + " must be the ARN of a secret");
            }
            secrets.put(String.valueOf(role), text);
        });
        if (!secrets.keySet().equals(ROLES)) {
            Set<String> missing = new TreeSet<>(ROLES);
            missing.removeAll(secrets.keySet());
            Set<String> unknown = new TreeSet<>(secrets.keySet());
            unknown.removeAll(ROLES);
            throw new IllegalArgumentException("RoleSecrets must name exactly " + new TreeSet<>(ROLES) + " (missing "
                    + missing + ", unknown " + unknown + ")");
        }
        String ownerArn = owner == null ? "" : ((String) owner).strip();
        return new SchemaRequest(ownerArn.isEmpty() ? Optional.empty() : Optional.of(ownerArn), secrets);
    }

    /** True when the function migrates the schema and sets up the roles; false when it only checks them. */
    public boolean migrates() {
        return ownerSecretArn.isPresent();
    }
}
