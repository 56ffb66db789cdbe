package dev.pastebin.infra.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.pastebin.local.template.CloudFormationTemplate;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The migration function (docs: the DatabaseSchema custom resource's interface) may read the owner's secret and the
 * five role secrets, nothing else: for the created database and for an existing one.
 */
class MigrationPrivilegesTest {

    private final CloudFormationTemplate template = InfraTemplate.load();

    @Test
    void theMigrationFunctionReadsExactlyTheOwnerAndRoleSecretsOfTheCreatedDatabase() {
        ParameterSet defaults = ParameterSet.named(template, "default");
        Set<Object> expected = new HashSet<>();
        expected.add(Map.of("Fn::GetAtt", List.of("DatabaseCluster", "MasterUserSecret.SecretArn")));
        DeployFromEmptyAccountTest.ROLES.values().forEach(role -> expected.add(Map.of("Ref", role.get(1))));
        assertEquals(expected, readableSecrets(defaults));
    }

    @Test
    void withAnExistingDatabaseItReadsTheGivenOwnerSecretIfAnyAndTheRoleSecretParameters() {
        ParameterSet existing = ParameterSet.named(template, "existing");
        Set<Object> roles = new HashSet<>();
        DeployFromEmptyAccountTest.ROLES.values().forEach(role -> roles.add(Map.of("Ref", role.get(2))));
        Set<Object> withOwner = new HashSet<>(roles);
        withOwner.add(Map.of("Ref", "DatabaseOwnerSecretArn"));
        assertEquals(withOwner, readableSecrets(existing));
        assertEquals(roles, readableSecrets(existing.with(Map.of("DatabaseOwnerSecretArn", ""))));
    }

    /** The secrets the function's policies let it read; fails on any other action or on a wildcard resource. */
    private Set<Object> readableSecrets(ParameterSet answers) {
        Set<Object> secrets = new HashSet<>();
        List<?> policies = (List<?>)
                answers.decide(template.properties("DatabaseMigrationFunction").get("Policies"));
        for (Object policy : policies) {
            Map<String, Object> p = CloudFormationTemplate.mapping(policy, "policy");
            if (p.containsKey("AWSSecretsManagerGetSecretValuePolicy")) {
                secrets.add(CloudFormationTemplate.mapping(p.get("AWSSecretsManagerGetSecretValuePolicy"), "policy")
                        .get("SecretArn"));
                continue;
            }
            assertEquals(
                    Set.of("Statement"), p.keySet(), "only GetSecretValue, as a SAM policy template or a statement");
            for (Object s : (List<?>) p.get("Statement")) {
                Map<String, Object> statement = CloudFormationTemplate.mapping(s, "statement");
                assertEquals("Allow", statement.get("Effect"));
                Object actions = statement.get("Action");
                assertEquals(
                        List.of("secretsmanager:GetSecretValue"),
                        actions instanceof List<?> l ? l : List.of(actions),
                        "the migration function's only action");
                Object resources = statement.get("Resource");
                for (Object resource : resources instanceof List<?> l ? l : List.of(resources)) {
                    assertFalse(String.valueOf(resource).contains("*"), "no wildcard: " + resource);
                    secrets.add(resource);
                }
            }
        }
        return secrets;
    }
}
