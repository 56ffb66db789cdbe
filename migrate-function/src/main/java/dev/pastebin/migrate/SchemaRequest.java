package dev.pastebin.migrate;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a Create or Update of the {@code Custom::DatabaseSchema} resource asks for, read from its properties:
 * {@code OwnerSecretArn} (the secret of the role that owns the schema, or "" when the operator migrates by hand)
 * and {@code RoleSecrets} (each function's role name and the ARN of its secret). {@code Release}, the function's
 * published version, makes CloudFormation send an Update when the function's code changes, and tells its rollback
 * apart ({@link #isRollback}).
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

    /** A version number, alone or at the end of a Lambda version's ARN. */
    private static final Pattern RELEASE = Pattern.compile("(?:arn:.*:)?([0-9]{1,18})");

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

    /**
     * True for CloudFormation's rollback of a failed deploy: an Update whose {@code Release} is an older function
     * version than its {@code OldResourceProperties}' (the rollback sends the previous properties as the new ones).
     * A forward deploy always carries a newer version: each release publishes one.
     */
    public static boolean isRollback(Map<String, Object> properties, Map<String, Object> oldProperties) {
        OptionalLong release = release(properties);
        OptionalLong old = release(oldProperties);
        return release.isPresent() && old.isPresent() && release.getAsLong() < old.getAsLong();
    }

    /**
     * The version number of {@code Release}: the template gives the version's ARN
     * ({@code !Ref DatabaseMigrationFunction.Version}, ending in {@code :<number>}), a test or a hand-made event the
     * number alone. Empty when there is none.
     */
    static OptionalLong release(Map<String, Object> properties) {
        Object release = properties == null ? null : properties.get("Release");
        if (!(release instanceof String text)) {
            return OptionalLong.empty();
        }
        Matcher m = RELEASE.matcher(text.strip());
        if (!m.matches()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(m.group(1)));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    /** True when the function migrates the schema and sets up the roles; false when it only checks them. */
    public boolean migrates() {
        return ownerSecretArn.isPresent();
    }
}
