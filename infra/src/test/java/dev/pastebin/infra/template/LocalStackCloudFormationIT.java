package dev.pastebin.infra.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.RealServices;
import dev.pastebin.local.template.CloudFormationTemplate;
import dev.pastebin.local.template.LanguageExtensions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.Capability;
import software.amazon.awssdk.services.cloudformation.model.Stack;
import software.amazon.awssdk.services.cloudformation.model.StackResource;
import software.amazon.awssdk.services.cloudformation.model.StackStatus;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.DescribeRuleResponse;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ServerSideEncryption;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * What LocalStack's CloudFormation can create of infra/template.yaml: everything that is not Lambda or API
 * Gateway. The functions need LocalStack's Lambda service, which runs code only in Docker (absent here, so
 * the service is not started), and the HTTP API is API Gateway v2 (not in LocalStack's community edition)
 * in front of those functions. This test derives a template from the real one that keeps the queues, the
 * bucket and its policy, the log groups and alarms, and turns each function's {@code Schedule} event into
 * the EventBridge rule SAM would generate (without its Lambda target), deploys it, and checks the result.
 */
@RealServices
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LocalStackCloudFormationIT {

    /** Resource types LocalStack (community, no Docker) creates; everything else is left out of the derived stack. */
    static final Set<String> CREATABLE = Set.of(
            "AWS::SQS::Queue",
            // the upload queue's policy that lets S3 send it a large paste's staged files (the bucket depends on it)
            "AWS::SQS::QueuePolicy",
            "AWS::S3::Bucket",
            "AWS::S3::BucketPolicy",
            "AWS::Logs::LogGroup",
            "AWS::CloudWatch::Alarm",
            "AWS::SNS::Topic",
            // the alarm topic's customer-managed key (CloudWatch alarms cannot publish under aws/sns)
            "AWS::KMS::Key",
            // the generated role secrets (and the edge's origin secret). Not the created network: the local
            // LocalStack runs without EC2 (Fn::GetAZs fails: "Could not describe zones availability"), and not
            // the database (RDS is not in the community edition).
            "AWS::SecretsManager::Secret");

    private final CloudFormationTemplate template = InfraTemplate.load();
    private final String stackName =
            "pastebin-template-it-" + UUID.randomUUID().toString().substring(0, 8);
    private final String templateBucket = stackName + "-templates";
    private CloudFormationClient cloudFormation;
    private Stack stack;
    private Map<String, String> physicalIds;

    @BeforeAll
    void deployDerivedStack() {
        cloudFormation = CloudFormationClient.create();
        Map<String, Object> derived = derive(template);
        String body = new Yaml(dumperOptions()).dump(derived);
        cloudFormation.createStack(
                b -> b.stackName(stackName).templateBody(body).capabilities(Capability.CAPABILITY_IAM));
        stack = awaitStack(Duration.ofMinutes(3));
        physicalIds = cloudFormation.describeStackResources(b -> b.stackName(stackName)).stackResources().stream()
                .collect(Collectors.toMap(
                        StackResource::logicalResourceId,
                        r -> r.physicalResourceId() == null ? "" : r.physicalResourceId()));
    }

    @AfterAll
    void deleteStack() {
        if (cloudFormation == null) {
            return;
        }
        removeStagedTemplates();
        String bucket = physicalIds == null ? null : physicalIds.get("PasteBucket");
        cloudFormation.deleteStack(b -> b.stackName(stackName));
        // PasteBucket is DeletionPolicy: Retain (as on AWS): the stack leaves it behind, the test removes it
        if (bucket != null && !bucket.isEmpty()) {
            try (S3Client s3 = S3Client.builder().forcePathStyle(true).build()) {
                s3.deleteBucket(b -> b.bucket(bucket));
            }
        }
        cloudFormation.close();
    }

    @Test
    void everyResourceLocalStackCanCreateIsCreated() {
        assertEquals(StackStatus.CREATE_COMPLETE, stack.stackStatus(), stack.stackStatusReason());
        List<StackResource> resources = cloudFormation
                .describeStackResources(b -> b.stackName(stackName))
                .stackResources();
        for (StackResource resource : resources) {
            assertEquals("CREATE_COMPLETE", resource.resourceStatusAsString(), resource.logicalResourceId());
        }
        Set<String> expected = new LinkedHashSet<>();
        for (String type : CREATABLE) {
            expected.addAll(template.resourcesOfType(type));
        }
        // they watch a function or the HTTP API, which are not in the derived stack
        expected.removeIf(id -> template.type(id).equals("AWS::CloudWatch::Alarm")
                && String.valueOf(template.properties(id).get("Dimensions"))
                        .matches(".*\\{Ref=(\\w+Function|HttpApi)}.*"));
        // conditions false by default (e.g. the edge's previous secret) create nothing
        expected.removeIf(
                id -> !ParameterSet.named(template, "default").resources().contains(id));
        expected.add("SweeperFunctionScheduled");
        assertEquals(
                expected,
                resources.stream().map(StackResource::logicalResourceId).collect(Collectors.toSet()));
    }

    @Test
    void theUploadQueueHasTheTemplatesAttributesAndRedrivesToTheDeadLetterQueue() {
        try (SqsClient sqs = SqsClient.create()) {
            Map<QueueAttributeName, String> queue = sqs.getQueueAttributes(
                            b -> b.queueUrl(physicalIds.get("UploadQueue")).attributeNames(QueueAttributeName.ALL))
                    .attributes();
            Map<QueueAttributeName, String> dlq = sqs.getQueueAttributes(b ->
                            b.queueUrl(physicalIds.get("UploadDeadLetterQueue")).attributeNames(QueueAttributeName.ALL))
                    .attributes();
            Map<String, Object> declared = template.properties("UploadQueue");
            assertEquals(
                    String.valueOf(template.intValue(declared.get("VisibilityTimeout"))),
                    queue.get(QueueAttributeName.VISIBILITY_TIMEOUT));
            assertEquals(
                    String.valueOf(template.intValue(declared.get("MaximumMessageSize"))),
                    queue.get(QueueAttributeName.MAXIMUM_MESSAGE_SIZE));
            String redrive = queue.get(QueueAttributeName.REDRIVE_POLICY);
            assertTrue(redrive.contains(dlq.get(QueueAttributeName.QUEUE_ARN)), redrive);
            int maxReceiveCount =
                    template.intValue(CloudFormationTemplate.mapping(declared.get("RedrivePolicy"), "RedrivePolicy")
                            .get("maxReceiveCount"));
            assertTrue(
                    redrive.replace(" ", "").matches(".*\"maxReceiveCount\":\"?" + maxReceiveCount + "\"?.*"), redrive);
            assertEquals("1209600", dlq.get(QueueAttributeName.MESSAGE_RETENTION_PERIOD));
        }
    }

    @Test
    void theBucketIsEncryptedPrivateAndDeniesPlainHttp() {
        String bucket = physicalIds.get("PasteBucket");
        try (S3Client s3 = S3Client.builder().forcePathStyle(true).build()) {
            assertEquals(
                    ServerSideEncryption.AES256,
                    s3.getBucketEncryption(b -> b.bucket(bucket))
                            .serverSideEncryptionConfiguration()
                            .rules()
                            .getFirst()
                            .applyServerSideEncryptionByDefault()
                            .sseAlgorithm());
            var block = s3.getPublicAccessBlock(b -> b.bucket(bucket)).publicAccessBlockConfiguration();
            assertTrue(block.blockPublicAcls()
                    && block.blockPublicPolicy()
                    && block.ignorePublicAcls()
                    && block.restrictPublicBuckets());
            String policy = s3.getBucketPolicy(b -> b.bucket(bucket)).policy();
            assertTrue(policy.contains("aws:SecureTransport") && policy.contains("Deny"), policy);
            // a large paste's staged files become the upload queue's jobs
            var notifications =
                    s3.getBucketNotificationConfiguration(b -> b.bucket(bucket)).queueConfigurations();
            assertEquals(1, notifications.size(), notifications.toString());
            assertTrue(
                    notifications
                            .getFirst()
                            .queueArn()
                            .endsWith(":"
                                    + physicalIds
                                            .get("UploadQueue")
                                            .substring(physicalIds
                                                            .get("UploadQueue")
                                                            .lastIndexOf('/')
                                                    + 1)),
                    notifications.toString());
        }
    }

    @Test
    void theSweeperScheduleBecomesAnEventBridgeRule() {
        try (EventBridgeClient events = EventBridgeClient.create()) {
            String ruleName = physicalIds.get("SweeperFunctionScheduled");
            DescribeRuleResponse rule = events.describeRule(
                    b -> b.name(ruleName.contains("|") ? ruleName.substring(ruleName.indexOf('|') + 1) : ruleName));
            assertEquals(
                    template.valueOrDefault(scheduleEvents(template)
                            .get("SweeperFunctionScheduled")
                            .get("Schedule")),
                    rule.scheduleExpression());
            assertEquals("ENABLED", rule.stateAsString());
        }
    }

    /**
     * The SAM transform (shipped in localstack-core[runtime]) expands the whole, unmodified template: a change
     * set that is never executed lists what {@code sam deploy} would create on AWS, including the resources
     * LocalStack cannot create here.
     */
    @Test
    void theSamTransformExpandsTheWholeTemplate() {
        Map<String, Object> full = new LinkedHashMap<>(template.root());
        // CodeUri must be an S3 location for the transform; nothing is uploaded because nothing is executed.
        Map<String, Object> resources = new LinkedHashMap<>();
        template.resources().forEach((id, r) -> {
            Map<String, Object> resource = new LinkedHashMap<>(CloudFormationTemplate.mapping(r, id));
            if ("AWS::Serverless::Function".equals(resource.get("Type"))) {
                Map<String, Object> properties =
                        new LinkedHashMap<>(CloudFormationTemplate.mapping(resource.get("Properties"), id));
                properties.put("CodeUri", "s3://pastebin-artifacts/" + id + ".zip");
                // LocalStack 4.14's transform hangs on a DeploymentPreference (SAM then looks up its feature
                // toggles, out of reach here); `sam validate --lint` (validate-template.sh, in make test) expands
                // the template with it and DeployFromEmptyAccountTest checks it
                properties.remove("DeploymentPreference");
                resource.put("Properties", properties);
            }
            if ("AWS::CloudFormation::Stack".equals(resource.get("Type"))) {
                // a nested template next to this one, uploaded as `sam deploy` uploads it
                Map<String, Object> properties =
                        new LinkedHashMap<>(CloudFormationTemplate.mapping(resource.get("Properties"), id));
                String nested = (String) properties.get("TemplateURL");
                properties.put("TemplateURL", staged(id + ".yaml", readInfraFile(nested)));
                resource.put("Properties", properties);
            }
            resources.put(id, withoutVersionReferences(resource));
        });
        full.put("Resources", resources);
        // LocalStack's community CloudFormation does not run AWS::LanguageExtensions, which the template lists before
        // SAM's transform: its resolution of the Fn::Ifs SAM cannot read (the HTTP API's Auth) is done here instead
        Map<String, Object> expanded = LanguageExtensions.expandedForSam(template, full);
        String changeSetStack = stackName + "-full";
        var changeSet = cloudFormation.createChangeSet(b -> b.stackName(changeSetStack)
                .changeSetName("transform")
                .changeSetType("CREATE")
                .templateURL(staged(changeSetStack + ".yaml", new Yaml(dumperOptions()).dump(expanded)))
                // the defaults need no answer: `sam deploy --guided` creates the network, the database and its secrets
                .capabilities(Capability.CAPABILITY_IAM, Capability.CAPABILITY_AUTO_EXPAND));
        try {
            var described = awaitChangeSet(changeSet.id());
            assertEquals("CREATE_COMPLETE", described.statusAsString(), described.statusReason());
            Map<String, Set<String>> byType = new java.util.TreeMap<>();
            described
                    .changes()
                    .forEach(c -> byType.computeIfAbsent(
                                    c.resourceChange().resourceType(), t -> new java.util.TreeSet<>())
                            .add(c.resourceChange().logicalResourceId()));
            Set<String> functions = Set.of(
                    "CreatePasteFunction",
                    "ReadPasteFunction",
                    "RemovePasteFunction",
                    "UploadPasteFunction",
                    "SweeperFunction",
                    "ReportPasteFunction",
                    "PrivateBinFunction",
                    "ModerationFunction",
                    "ModerationOutboxFunction",
                    "DatabaseMigrationFunction",
                    "DatabaseProtectionFunction",
                    "EdgeAclFunction");
            assertEquals(functions, byType.get("AWS::Lambda::Function"), byType.toString());
            assertEquals(12, byType.get("AWS::Lambda::Alias").size(), "AutoPublishAlias: live");
            assertEquals(12, byType.get("AWS::Lambda::Version").size(), "one published version each");
            assertEquals(
                    Set.of("UploadPasteFunctionUploadJobs", "ModerationOutboxFunctionOutbox"),
                    byType.get("AWS::Lambda::EventSourceMapping"));
            assertEquals(Set.of("SweeperFunctionScheduled"), byType.get("AWS::Events::Rule"));
            assertEquals(Set.of("HttpApi"), byType.get("AWS::ApiGatewayV2::Api"));
            // a role per function (EdgeAclFunction's, DatabaseProtectionFunction's and ModerationOutboxFunction's are
            // their own resources)
            assertEquals(12, byType.get("AWS::IAM::Role").size(), byType.toString());
            // the network of NetworkMode create: two private subnets, no NAT, the endpoints the functions call
            assertEquals(Set.of("Vpc"), byType.get("AWS::EC2::VPC"), byType.toString());
            assertEquals(Set.of("PrivateSubnetA", "PrivateSubnetB"), byType.get("AWS::EC2::Subnet"), byType.toString());
            assertEquals(
                    Set.of("S3GatewayEndpoint", "SecretsManagerEndpoint", "SqsEndpoint"),
                    byType.get("AWS::EC2::VPCEndpoint"),
                    byType.toString());
            assertEquals(null, byType.get("AWS::EC2::NatGateway"), byType.toString());
            assertEquals(Set.of("DatabaseSchema"), byType.get("Custom::DatabaseSchema"), byType.toString());
            assertEquals(Set.of("DatabaseProtection"), byType.get("Custom::DatabaseProtection"), byType.toString());
            assertEquals(Set.of("DatabaseCluster"), byType.get("AWS::RDS::DBCluster"), byType.toString());
            // the API and schedule may invoke their functions: POST /pastes, POST / (the command-line clients), GET,
            // HEAD, DELETE, POST reveal, POST report, the web page's three GETs, security.txt, the haste protocol's
            // POST and three GETs, PrivateBin's GET and POST of /pb/ and /pb, the owner's GET and DELETE under
            // /me/pastes, curl -T's PUT /{name}, and the rule (the moderation function has no route: IAM invokes it)
            assertEquals(23, byType.get("AWS::Lambda::Permission").size(), byType.toString());
            // the edge, on by default, with its web ACL made in us-east-1 by EdgeAclFunction
            assertEquals(Set.of("EdgeDistribution"), byType.get("AWS::CloudFront::Distribution"), byType.toString());
            assertEquals(Set.of("EdgeWebAcl"), byType.get("Custom::EdgeWebAcl"), byType.toString());
            assertEquals(
                    Set.of(
                            "EdgeOriginSecret",
                            "CreateDatabaseRoleSecret",
                            "ReadDatabaseRoleSecret",
                            "RemoveDatabaseRoleSecret",
                            "UploadDatabaseRoleSecret",
                            "SweeperDatabaseRoleSecret",
                            "ReportDatabaseRoleSecret",
                            "ModerationDatabaseRoleSecret",
                            "PrivateBinDatabaseRoleSecret",
                            "ReportAddressKeySecret"),
                    byType.get("AWS::SecretsManager::Secret"),
                    byType.toString());
            // the abuse reports' notifications and the takedowns' invalidations, handed out of the VPC
            assertEquals(
                    Set.of("AbuseNotificationTopic", "AlarmTopic"), byType.get("AWS::SNS::Topic"), byType.toString());
            assertEquals(Set.of("AlarmTopicKey"), byType.get("AWS::KMS::Key"), byType.toString());
            assertEquals(
                    Set.of(
                            "UploadQueue",
                            "UploadDeadLetterQueue",
                            "ModerationOutboxQueue",
                            "ModerationOutboxDeadLetterQueue"),
                    byType.get("AWS::SQS::Queue"),
                    byType.toString());
        } finally {
            cloudFormation.deleteChangeSet(b -> b.changeSetName(changeSet.id()));
            cloudFormation.deleteStack(b -> b.stackName(changeSetStack));
        }
    }

    /**
     * LocalStack checks a template's references before it applies the transform, and knows nothing of SAM's
     * {@code !Ref Function.Version} and {@code Function.Alias}; the staged copy names the function's ARN instead (an unexecuted change set
     * only lists what would be created).
     */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> withoutVersionReferences(Map<String, Object> node) {
        Map<String, Object> copy = new LinkedHashMap<>();
        node.forEach((key, value) -> copy.put(key, withoutVersionReferences(value)));
        return copy;
    }

    @SuppressWarnings("unchecked")
    private static Object withoutVersionReferences(Object value) {
        if (value instanceof Map<?, ?> map) {
            Object ref = map.get("Ref");
            if (map.size() == 1 && ref instanceof String target && target.matches("\\w+[.](Version|Alias)")) {
                return Map.of("Fn::GetAtt", List.of(target.substring(0, target.indexOf('.')), "Arn"));
            }
            return withoutVersionReferences((Map<String, Object>) map);
        }
        if (value instanceof List<?> list) {
            return list.stream()
                    .map(LocalStackCloudFormationIT::withoutVersionReferences)
                    .toList();
        }
        return value;
    }

    private static String readInfraFile(String name) {
        try {
            return java.nio.file.Files.readString(InfraTemplate.INFRA.resolve(name));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private software.amazon.awssdk.services.cloudformation.model.DescribeChangeSetResponse awaitChangeSet(String id) {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        while (true) {
            var described = cloudFormation.describeChangeSet(b -> b.changeSetName(id));
            String status = described.statusAsString();
            if (!(status.equals("CREATE_PENDING") || status.equals("CREATE_IN_PROGRESS"))
                    || Instant.now().isAfter(deadline)) {
                return described;
            }
            sleep();
        }
    }

    /** The real template minus what needs Lambda or API Gateway v2, plus the schedule rules SAM would derive. */
    static Map<String, Object> derive(CloudFormationTemplate template) {
        Map<String, Object> resources = new LinkedHashMap<>();
        template.resources().forEach((id, resource) -> {
            if (CREATABLE.contains(CloudFormationTemplate.mapping(resource, id).get("Type"))) {
                resources.put(id, resource);
            }
        });
        // drop what refers to a left-out resource (e.g. an alarm on a function's errors)
        Set<String> all = template.resources().keySet();
        boolean changed = true;
        while (changed) {
            changed = resources
                    .keySet()
                    .removeIf(id -> references(resources.get(id)).stream()
                            .anyMatch(ref -> all.contains(ref) && !resources.containsKey(ref)));
        }
        scheduleEvents(template).forEach((ruleId, schedule) -> {
            Map<String, Object> properties = new LinkedHashMap<>();
            properties.put("ScheduleExpression", schedule.get("Schedule"));
            properties.put("State", schedule.getOrDefault("State", "ENABLED"));
            if (schedule.containsKey("Description")) {
                properties.put("Description", schedule.get("Description"));
            }
            resources.put(ruleId, Map.of("Type", "AWS::Events::Rule", "Properties", properties));
        });
        Set<String> used = new LinkedHashSet<>(references(resources));
        // the Conditions are copied whole: the parameters they test must come along (EdgeEnabled, ...)
        used.addAll(references(template.root().getOrDefault("Conditions", Map.of())));
        Map<String, Object> parameters = new LinkedHashMap<>();
        CloudFormationTemplate.mapping(template.root().get("Parameters"), "Parameters")
                .forEach((name, p) -> {
                    if (used.contains(name)) {
                        parameters.put(name, p);
                    }
                });
        Map<String, Object> outputs = new LinkedHashMap<>();
        CloudFormationTemplate.mapping(template.root().get("Outputs"), "Outputs")
                .forEach((name, output) -> {
                    if (references(output).stream().allMatch(ref -> !all.contains(ref) || resources.containsKey(ref))) {
                        outputs.put(name, output);
                    }
                });
        Map<String, Object> derived = new LinkedHashMap<>();
        derived.put("AWSTemplateFormatVersion", "2010-09-09");
        derived.put(
                "Description",
                "infra/template.yaml without Lambda and API Gateway resources (LocalStackCloudFormationIT)");
        derived.put("Parameters", parameters);
        if (template.root().containsKey("Conditions")) {
            derived.put("Conditions", template.root().get("Conditions"));
        }
        derived.put("Resources", resources);
        derived.put("Outputs", outputs);
        return derived;
    }

    /** Each function's Schedule events, by the logical id SAM gives the generated rule ({@code <Function><Event>}, e.g. SweeperFunctionScheduled). */
    static Map<String, Map<String, Object>> scheduleEvents(CloudFormationTemplate template) {
        Map<String, Map<String, Object>> rules = new LinkedHashMap<>();
        for (String function : template.resourcesOfType("AWS::Serverless::Function")) {
            Object events = template.properties(function).get("Events");
            if (events == null) {
                continue;
            }
            CloudFormationTemplate.mapping(events, "Events").forEach((name, event) -> {
                Map<String, Object> e = CloudFormationTemplate.mapping(event, name);
                if ("Schedule".equals(e.get("Type"))) {
                    rules.put(
                            function + name, CloudFormationTemplate.mapping(e.get("Properties"), name + ".Properties"));
                }
            });
        }
        return rules;
    }

    /** Names a value refers to through Ref, Fn::GetAtt or ${...} in Fn::Sub. */
    static List<String> references(Object value) {
        List<String> refs = new ArrayList<>();
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                if ("Ref".equals(k) && v instanceof String s) {
                    refs.add(s);
                } else if ("Fn::GetAtt".equals(k) && v instanceof List<?> l && !l.isEmpty()) {
                    refs.add(String.valueOf(l.getFirst()));
                } else if ("Fn::Sub".equals(k)) {
                    Object text = v instanceof List<?> l ? l.getFirst() : v;
                    var m = java.util.regex.Pattern.compile("\\$\\{([A-Za-z0-9]+)")
                            .matcher(String.valueOf(text));
                    while (m.find()) {
                        refs.add(m.group(1));
                    }
                    if (v instanceof List<?> l && l.size() > 1) {
                        refs.addAll(references(l.get(1)));
                    }
                } else if ("Condition".equals(k) && v instanceof String) {
                    // a condition name, not a resource
                } else {
                    refs.addAll(references(v));
                }
            });
        } else if (value instanceof List<?> list) {
            list.forEach(v -> refs.addAll(references(v)));
        }
        return refs;
    }

    private Stack awaitStack(Duration within) {
        Instant deadline = Instant.now().plus(within);
        while (true) {
            Stack current = cloudFormation
                    .describeStacks(b -> b.stackName(stackName))
                    .stacks()
                    .getFirst();
            if (!current.stackStatusAsString().endsWith("_IN_PROGRESS")
                    || Instant.now().isAfter(deadline)) {
                return current;
            }
            sleep();
        }
    }

    private static void sleep() {
        try {
            Thread.sleep(500);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static DumperOptions dumperOptions() {
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        return options;
    }

    /**
     * The whole template is over CloudFormation's 51,200-byte limit for an inline TemplateBody, so it goes
     * through S3 as `sam deploy` sends it (samconfig.toml's resolve_s3): a TemplateURL in a bucket of the test's own.
     */
    private String staged(String key, String body) {
        try (S3Client s3 = S3Client.builder().forcePathStyle(true).build()) {
            if (s3.listBuckets().buckets().stream().noneMatch(b -> b.name().equals(templateBucket))) {
                s3.createBucket(b -> b.bucket(templateBucket));
            }
            s3.putObject(b -> b.bucket(templateBucket).key(key), RequestBody.fromString(body));
            return s3.utilities().getUrl(b -> b.bucket(templateBucket).key(key)).toString();
        }
    }

    private void removeStagedTemplates() {
        try (S3Client s3 = S3Client.builder().forcePathStyle(true).build()) {
            if (s3.listBuckets().buckets().stream().noneMatch(b -> b.name().equals(templateBucket))) {
                return;
            }
            s3.listObjectsV2(b -> b.bucket(templateBucket))
                    .contents()
                    .forEach(o -> s3.deleteObject(b -> b.bucket(templateBucket).key(o.key())));
            s3.deleteBucket(b -> b.bucket(templateBucket));
        }
    }
}
