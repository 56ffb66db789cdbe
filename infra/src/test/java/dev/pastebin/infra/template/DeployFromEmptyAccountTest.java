package dev.pastebin.infra.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.local.template.CloudFormationTemplate;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * `sam deploy --guided` from an empty account (NetworkMode and DatabaseMode create), and the bring-your-own path
 * (existing): what each creates, resolved from the template's conditions for infra/template-parameter-sets.json.
 */
class DeployFromEmptyAccountTest {

    /** Each function's database role: RoleSecrets' key, the generated secret and the existing-mode parameter. */
    static final Map<String, List<String>> ROLES = new LinkedHashMap<>();

    static {
        ROLES.put(
                "CreatePasteFunction",
                List.of("pastebin_create", "CreateDatabaseRoleSecret", "CreateDatabaseSecretArn"));
        ROLES.put("ReadPasteFunction", List.of("pastebin_read", "ReadDatabaseRoleSecret", "ReadDatabaseSecretArn"));
        ROLES.put(
                "RemovePasteFunction",
                List.of("pastebin_remove", "RemoveDatabaseRoleSecret", "RemoveDatabaseSecretArn"));
        ROLES.put(
                "UploadPasteFunction",
                List.of("pastebin_upload", "UploadDatabaseRoleSecret", "UploadDatabaseSecretArn"));
        ROLES.put(
                "SweeperFunction",
                List.of("pastebin_sweeper", "SweeperDatabaseRoleSecret", "SweeperDatabaseSecretArn"));
        ROLES.put(
                "ReportPasteFunction",
                List.of("pastebin_report", "ReportDatabaseRoleSecret", "ReportDatabaseSecretArn"));
        ROLES.put(
                "ModerationFunction",
                List.of("pastebin_moderation", "ModerationDatabaseRoleSecret", "ModerationDatabaseSecretArn"));
        ROLES.put(
                "PrivateBinFunction",
                List.of("pastebin_privatebin", "PrivateBinDatabaseRoleSecret", "PrivateBinDatabaseSecretArn"));
    }

    static final Set<String> CREATED_NETWORK = Set.of(
            "Vpc",
            "PrivateSubnetA",
            "PrivateSubnetB",
            "PrivateRouteTable",
            "PrivateSubnetARouteTable",
            "PrivateSubnetBRouteTable",
            "FunctionSecurityGroup",
            "FunctionToDatabaseEgress",
            "FunctionToEndpointsEgress",
            "EndpointSecurityGroup",
            "DatabaseSecurityGroup",
            "DatabaseFromFunctionsIngress",
            "S3GatewayEndpoint",
            "SqsEndpoint",
            "SecretsManagerEndpoint");
    static final Set<String> CREATED_DATABASE = Set.of(
            "DatabaseSubnetGroup",
            "DatabaseCluster",
            "DatabaseInstance",
            "DatabaseProtection",
            "DatabaseProtectionFunction",
            "CreateDatabaseRoleSecret",
            "ReadDatabaseRoleSecret",
            "RemoveDatabaseRoleSecret",
            "UploadDatabaseRoleSecret",
            "SweeperDatabaseRoleSecret");

    private final CloudFormationTemplate template = InfraTemplate.load();
    private final ParameterSet defaults = ParameterSet.named(template, "default");
    private final ParameterSet existing = ParameterSet.named(template, "existing");

    /** `sam deploy --guided` only asks what has no good default: every parameter has one, AWS's region aside. */
    @Test
    void everyParameterHasADefaultAndTheDefaultsPassTheRules() {
        template.parameters()
                .forEach((name, p) -> assertNotNull(
                        CloudFormationTemplate.mapping(p, name).get("Default"), name + " has no Default"));
        assertEquals(List.of(), defaults.failedRules());
        assertEquals(List.of(), existing.failedRules());
    }

    @Test
    void theDefaultPathCreatesTheNetworkTheDatabaseItsSecretsAndTheAlarmTopic() {
        Set<String> resources = defaults.resources();
        Set<String> expected = new TreeSet<>(CREATED_NETWORK);
        expected.addAll(CREATED_DATABASE);
        expected.addAll(
                Set.of("DatabaseSchema", "DatabaseMigrationFunction", "AlarmTopic", "PasteBucket", "UploadQueue"));
        expected.addAll(InfraTemplate.PRODUCT_FUNCTIONS);
        assertTrue(resources.containsAll(expected), "missing: " + difference(expected, resources));
        assertFalse(resources.contains("AlarmEmailSubscription"), "no AlarmEmail, no subscription");
        assertTrue(defaults.with(Map.of("AlarmEmail", "ops@example.com"))
                .resources()
                .contains("AlarmEmailSubscription"));
        // the network and the database the stack creates are the only ones the functions and the schema use
        Object vpc = defaults.decide(template.globalsFunction().get("VpcConfig"));
        assertEquals(
                Map.of(
                        "SubnetIds", List.of(Map.of("Ref", "PrivateSubnetA"), Map.of("Ref", "PrivateSubnetB")),
                        "SecurityGroupIds", List.of(Map.of("Ref", "FunctionSecurityGroup"))),
                vpc);
    }

    @Test
    void theExistingPathCreatesNoNetworkNoDatabaseNoSecretAndUsesTheParameters() {
        Set<String> resources = existing.resources();
        Set<String> created = new TreeSet<>(CREATED_NETWORK);
        created.addAll(CREATED_DATABASE);
        created.add("AlarmTopic");
        Set<String> unexpected = new TreeSet<>(created);
        unexpected.retainAll(resources);
        assertEquals(Set.of(), unexpected);
        assertTrue(
                resources.containsAll(InfraTemplate.PRODUCT_FUNCTIONS) && resources.contains("DatabaseSchema"),
                resources.toString());
        assertEquals(
                Map.of("SubnetIds", Map.of("Ref", "SubnetIds"), "SecurityGroupIds", Map.of("Ref", "SecurityGroupIds")),
                existing.decide(template.globalsFunction().get("VpcConfig")));
        Map<String, Object> schema = CloudFormationTemplate.mapping(
                existing.decide(template.properties("DatabaseSchema")), "DatabaseSchema");
        assertEquals(Map.of("Ref", "DatabaseOwnerSecretArn"), schema.get("OwnerSecretArn"));
        ROLES.forEach((function, role) -> {
            assertEquals(
                    Map.of("Ref", role.get(2)),
                    existing.decide(template.environment(function).get("PASTEBIN_DATABASE_SECRET_ID")),
                    function);
        });
    }

    @Test
    void theRulesRefuseAnIncompleteOrMixedAnswerBeforeAnythingIsCreated() {
        assertRefused(existing.with(Map.of("SubnetIds", "")), "ExistingNetworkNamed");
        assertRefused(existing.with(Map.of("SecurityGroupIds", "")), "ExistingNetworkNamed");
        assertRefused(existing.with(Map.of("DatabaseUrl", "")), "ExistingDatabaseNamed");
        assertRefused(existing.with(Map.of("UploadDatabaseSecretArn", "")), "ExistingDatabaseNamed");
        assertRefused(defaults.with(Map.of("DatabaseMode", "existing")), "DatabaseAndNetworkModesMatch");
        assertRefused(defaults.with(Map.of("NetworkMode", "existing")), "DatabaseAndNetworkModesMatch");
        // the owner secret is optional: without it the deploy only checks the schema
        assertEquals(
                List.of(), existing.with(Map.of("DatabaseOwnerSecretArn", "")).failedRules());
    }

    private static void assertRefused(ParameterSet answers, String rule) {
        List<String> failed = answers.failedRules();
        assertTrue(failed.stream().anyMatch(f -> f.startsWith(rule + ":")), rule + " should refuse; failed: " + failed);
    }

    /** interface.md: no version of a product function exists before the schema and its role are in place. */
    @Test
    void everyProductFunctionDependsOnTheDatabaseSchema() {
        for (String function : InfraTemplate.PRODUCT_FUNCTIONS) {
            Object dependsOn = template.resource(function).get("DependsOn");
            List<?> list = dependsOn instanceof List<?> l ? l : List.of(String.valueOf(dependsOn));
            assertTrue(list.contains("DatabaseSchema"), function + " DependsOn " + dependsOn);
        }
    }

    @Test
    void theSchemaResourceFollowsTheMigrationInterface() {
        assertEquals("Custom::DatabaseSchema", template.type("DatabaseSchema"));
        Map<String, Object> p = template.properties("DatabaseSchema");
        assertEquals(Map.of("Fn::GetAtt", List.of("DatabaseMigrationFunction", "Arn")), p.get("ServiceToken"));
        assertEquals(Map.of("Ref", "DatabaseMigrationFunction.Version"), p.get("Release"));
        Map<String, Object> created = CloudFormationTemplate.mapping(defaults.decide(p), "DatabaseSchema");
        assertEquals(
                Map.of("Fn::GetAtt", List.of("DatabaseCluster", "MasterUserSecret.SecretArn")),
                created.get("OwnerSecretArn"),
                "the cluster's RDS-managed master secret owns the schema");
        Map<String, Object> roles = CloudFormationTemplate.mapping(created.get("RoleSecrets"), "RoleSecrets");
        Map<String, Object> expected = new LinkedHashMap<>();
        ROLES.values().forEach(role -> expected.put(role.get(0), Map.of("Ref", role.get(1))));
        assertEquals(expected, roles);
        // the migration runs only once the instance and the way to it and to Secrets Manager exist
        String waits = defaults.decide(template.resource("DatabaseSchema").get("Metadata"))
                .toString();
        for (String id : List.of(
                "DatabaseInstance",
                "SecretsManagerEndpoint",
                "FunctionToDatabaseEgress",
                "FunctionToEndpointsEgress",
                "DatabaseFromFunctionsIngress")) {
            assertTrue(waits.contains("Ref=" + id + "}"), "DatabaseSchema waits for " + id + ": " + waits);
        }
    }

    /**
     * A failed first deploy rolls back by deleting what it created, and RDS refuses to delete a cluster with deletion
     * protection: with the cluster created protected, every failed first deploy would end ROLLBACK_FAILED. So the
     * cluster is created unprotected, and DatabaseProtection, a custom resource made once the cluster and its
     * instance exist, turns protection on as DatabaseDeletionProtection says; it depends on both, so the rollback
     * of a failed first deploy deletes it first, which turns protection off again (database-protection-function).
     */
    @Test
    void theClusterIsProtectedOnceItExistsAndAFailedFirstDeployCanDeleteIt() {
        Object created = defaults.decide(template.properties("DatabaseCluster").get("DeletionProtection"));
        Object createdWith = created == null ? "false" : template.valueOrDefault(created);
        assertEquals(
                "false",
                String.valueOf(createdWith),
                "the cluster is created with DeletionProtection " + created
                        + ": the rollback of a failed first deploy could not delete it");
        assertEquals("true", template.parameter("DatabaseDeletionProtection").get("Default"));

        assertEquals("Custom::DatabaseProtection", template.type("DatabaseProtection"));
        assertEquals("DatabaseCreated", template.resource("DatabaseProtection").get("Condition"));
        assertEquals("DatabaseInstance", template.resource("DatabaseProtection").get("DependsOn"));
        Map<String, Object> protection = template.properties("DatabaseProtection");
        assertEquals(
                Map.of("Fn::GetAtt", List.of("DatabaseProtectionFunction", "Arn")), protection.get("ServiceToken"));
        assertEquals(Map.of("Ref", "DatabaseCluster"), protection.get("DBClusterIdentifier"));
        assertEquals(Map.of("Ref", "DatabaseDeletionProtection"), protection.get("DeletionProtection"));
        assertTrue(defaults.resources().contains("DatabaseProtection"), "the default path protects its cluster");
        assertFalse(existing.resources().contains("DatabaseProtection"), "an existing database is the operator's");
    }

    /** Each generated secret is the role RoleSecrets names it for, and its password needs no quoting in a URL. */
    @Test
    void theGeneratedRoleSecretsNameTheirRolesAndHoldPlainPasswords() {
        ROLES.forEach((function, role) -> {
            Map<String, Object> generate = CloudFormationTemplate.mapping(
                    template.properties(role.get(1)).get("GenerateSecretString"), role.get(1));
            assertEquals("{\"username\": \"" + role.get(0) + "\"}", generate.get("SecretStringTemplate"));
            assertEquals("password", generate.get("GenerateStringKey"));
            assertEquals(true, generate.get("ExcludePunctuation"), role.get(1));
            assertTrue(((Number) generate.get("PasswordLength")).intValue() >= 32, role.get(1));
            assertEquals(
                    Map.of("Ref", role.get(1)),
                    defaults.decide(template.environment(function).get("PASTEBIN_DATABASE_SECRET_ID")),
                    function);
        });
    }

    @Test
    void theDatabaseIsEncryptedProtectedBackedUpAndLeavesASnapshot() {
        Map<String, Object> cluster = template.resource("DatabaseCluster");
        assertEquals("Snapshot", cluster.get("DeletionPolicy"));
        assertEquals("Snapshot", cluster.get("UpdateReplacePolicy"));
        Map<String, Object> p = template.properties("DatabaseCluster");
        assertEquals("aurora-postgresql", p.get("Engine"));
        assertEquals(true, p.get("StorageEncrypted"));
        assertEquals(true, p.get("ManageMasterUserPassword"), "RDS keeps and rotates the owner's password");
        // protected once it exists: theClusterIsProtectedOnceItExistsAndAFailedFirstDeployCanDeleteIt
        assertTrue(((Number) p.get("BackupRetentionPeriod")).intValue() >= 7);
        Map<String, Object> scaling =
                CloudFormationTemplate.mapping(p.get("ServerlessV2ScalingConfiguration"), "scaling");
        assertEquals(Map.of("Ref", "DatabaseMinCapacity"), scaling.get("MinCapacity"));
        assertEquals(0.5, ((Number) template.valueOrDefault(scaling.get("MinCapacity"))).doubleValue(), 0.0);
        assertEquals("db.serverless", template.properties("DatabaseInstance").get("DBInstanceClass"));
        assertEquals(false, template.properties("DatabaseInstance").get("PubliclyAccessible"));
        // the functions reach it by its endpoint, with the server's certificate and host name verified
        for (String function : InfraTemplate.PRODUCT_FUNCTIONS) {
            Object url = defaults.decide(template.environment(function).get("DATASOURCES_DEFAULT_URL"));
            String text = url.toString();
            assertTrue(
                    text.contains(
                            "jdbc:postgresql://${DatabaseCluster.Endpoint.Address}:${DatabaseCluster.Endpoint.Port}/pastebin?sslmode=verify-full"),
                    function + ": " + text);
        }
        assertEquals("ca-bundle", template.parameter("DatabaseTrustAnchor").get("Default"));
    }

    /** Nothing reaches the functions; they reach the database on 5432 and AWS on 443, and nothing else. */
    @Test
    void theSecurityGroupsAdmitOnlyTheFunctionsAndTheFunctionsOnlyReachTheDatabaseAndAws() {
        assertFalse(template.properties("FunctionSecurityGroup").containsKey("SecurityGroupIngress"));
        Set<String> functionEgress = new HashSet<>();
        for (Object rule :
                (List<?>) template.properties("FunctionSecurityGroup").get("SecurityGroupEgress")) {
            Map<String, Object> r = CloudFormationTemplate.mapping(rule, "egress");
            functionEgress.add(r.get("FromPort") + "-" + r.get("ToPort") + " " + r.get("CidrIp"));
        }
        for (String id : template.resourcesOfType("AWS::EC2::SecurityGroupEgress")) {
            Map<String, Object> r = template.properties(id);
            assertEquals(Map.of("Ref", "FunctionSecurityGroup"), r.get("GroupId"), id);
            functionEgress.add(r.get("FromPort") + "-" + r.get("ToPort") + " " + r.get("DestinationSecurityGroupId"));
        }
        assertEquals(
                Set.of(
                        "443-443 0.0.0.0/0",
                        "5432-5432 {Ref=DatabaseSecurityGroup}",
                        "443-443 {Ref=EndpointSecurityGroup}"),
                functionEgress);
        Set<String> ingress = new HashSet<>();
        for (String id : template.resourcesOfType("AWS::EC2::SecurityGroupIngress")) {
            Map<String, Object> r = template.properties(id);
            ingress.add(r.get("GroupId") + " " + r.get("FromPort") + " " + r.get("SourceSecurityGroupId"));
        }
        for (Object rule :
                (List<?>) template.properties("EndpointSecurityGroup").get("SecurityGroupIngress")) {
            Map<String, Object> r = CloudFormationTemplate.mapping(rule, "ingress");
            ingress.add("{Ref=EndpointSecurityGroup} " + r.get("FromPort") + " " + r.get("SourceSecurityGroupId"));
        }
        assertEquals(
                Set.of(
                        "{Ref=DatabaseSecurityGroup} 5432 {Ref=FunctionSecurityGroup}",
                        "{Ref=EndpointSecurityGroup} 443 {Ref=FunctionSecurityGroup}"),
                ingress);
        assertFalse(template.properties("DatabaseSecurityGroup").containsKey("SecurityGroupIngress"));
        // no way out of the private subnets but the endpoints: no internet or NAT gateway, no route but S3's
        assertEquals(List.of(), template.resourcesOfType("AWS::EC2::InternetGateway"));
        assertEquals(List.of(), template.resourcesOfType("AWS::EC2::NatGateway"));
        assertEquals(List.of(), template.resourcesOfType("AWS::EC2::Route"));
        assertEquals(
                Set.of(
                                template.properties("PrivateSubnetA").get("AvailabilityZone"),
                                template.properties("PrivateSubnetB").get("AvailabilityZone"))
                        .size(),
                2,
                "two Availability Zones");
    }

    /**
     * CodeDeploy shifts each product function's live alias gradually and rolls back when one of the function's
     * own alarms fires: its Lambda errors and, where it reports them, its database failures.
     */
    @Test
    void everyProductFunctionDeploysGraduallyAndRollsBackOnItsAlarms() {
        assertEquals(
                "Canary10Percent5Minutes",
                template.parameter("DeploymentPreferenceType").get("Default"));
        assertTrue(
                ((List<?>) template.parameter("DeploymentPreferenceType").get("AllowedValues")).contains("AllAtOnce"));
        Map<String, String> services = Map.of(
                "CreatePasteFunction", "create",
                "ReadPasteFunction", "read",
                "RemovePasteFunction", "remove",
                "UploadPasteFunction", "upload",
                "SweeperFunction", "sweeper",
                "ReportPasteFunction", "report",
                "ModerationFunction", "moderation",
                "PrivateBinFunction", "privatebin");
        for (String function : InfraTemplate.PRODUCT_FUNCTIONS) {
            Map<String, Object> preference = CloudFormationTemplate.mapping(
                    template.properties(function).get("DeploymentPreference"), function + ".DeploymentPreference");
            assertEquals(Map.of("Ref", "DeploymentPreferenceType"), preference.get("Type"), function);
            Set<String> alarms = new TreeSet<>();
            for (Object alarm : (List<?>) preference.get("Alarms")) {
                alarms.add(String.valueOf(
                        CloudFormationTemplate.mapping(alarm, "alarm").get("Ref")));
            }
            Set<String> own = new TreeSet<>();
            for (String alarm : template.resourcesOfType("AWS::CloudWatch::Alarm")) {
                Map<String, Object> p = template.properties(alarm);
                String dimensions = String.valueOf(p.get("Dimensions"));
                boolean errors = "AWS/Lambda".equals(p.get("Namespace"))
                        && "Errors".equals(p.get("MetricName"))
                        && dimensions.contains("Value={Ref=" + function + "}");
                boolean database = "Pastebin".equals(p.get("Namespace"))
                        && dimensions.contains("Value=" + services.get(function) + "}")
                        && (dimensions.contains("Value=database}") || dimensions.contains("Value=DATABASE}"));
                if (errors || database) {
                    own.add(alarm);
                }
            }
            assertFalse(own.isEmpty(), function);
            assertEquals(own, alarms, function);
        }
    }

    @Test
    void theOutputsNameTheEdgeTheDashboardAndTheAlarmTopic() {
        Map<String, Object> outputs =
                CloudFormationTemplate.mapping(template.root().get("Outputs"), "Outputs");
        assertTrue(
                outputs.keySet().containsAll(List.of("EdgeUrl", "DashboardUrl", "AlarmTopic")),
                outputs.keySet().toString());
        Map<String, Object> topic = CloudFormationTemplate.mapping(outputs.get("AlarmTopic"), "AlarmTopic");
        assertEquals(Map.of("Ref", "AlarmTopic"), defaults.decide(topic.get("Value")));
        assertEquals(Map.of("Ref", "AlarmTopicArn"), existing.decide(topic.get("Value")));
        // every alarm notifies that topic, whichever it is
        for (String alarm : template.resourcesOfType("AWS::CloudWatch::Alarm")) {
            assertEquals(
                    List.of(Map.of("Ref", "AlarmTopic")),
                    defaults.decide(template.properties(alarm).get("AlarmActions")),
                    alarm);
        }
    }

    private static Set<String> difference(Set<String> a, Set<String> b) {
        Set<String> d = new TreeSet<>(a);
        d.removeAll(b);
        return d;
    }
}
