package dev.pastebin.infra.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.create.CreateAccessProperties;
import dev.pastebin.core.config.DatabaseTlsProperties;
import dev.pastebin.core.delivery.DeliveryProperties;
import dev.pastebin.core.delivery.DeliveryQueueProperties;
import dev.pastebin.core.delivery.ReceiveBudget;
import dev.pastebin.core.delivery.SqsLimits;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.PasteProperties;
import dev.pastebin.local.template.CloudFormationTemplate;
import dev.pastebin.local.template.SamTemplate;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.env.PropertySource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The rules infra/template.yaml must keep, read from the template itself. */
class TemplateTest {

    private final CloudFormationTemplate template = InfraTemplate.load();

    @Test
    void theFunctionsTheLocalRuntimeExpectsAreDeclaredWithTheirHandlersAndModules() {
        Map<String, List<String>> expected = new HashMap<>(Map.of(
                "CreatePasteFunction",
                        List.of(
                                "../create-function",
                                "io.micronaut.function.aws.proxy.payload2.APIGatewayV2HTTPEventFunction"),
                "ReadPasteFunction",
                        List.of(
                                "../read-function",
                                "io.micronaut.function.aws.proxy.payload2.APIGatewayV2HTTPEventFunction"),
                "RemovePasteFunction",
                        List.of(
                                "../remove-function",
                                "io.micronaut.function.aws.proxy.payload2.APIGatewayV2HTTPEventFunction"),
                "ReportPasteFunction",
                        List.of(
                                "../report-function",
                                "io.micronaut.function.aws.proxy.payload2.APIGatewayV2HTTPEventFunction"),
                "UploadPasteFunction", List.of("../upload-function", "dev.pastebin.upload.UploadHandler"),
                "SweeperFunction", List.of("../sweeper-function", "dev.pastebin.sweeper.SweeperHandler"),
                "EdgeAclFunction", List.of("../edge-acl-function", "dev.pastebin.edgeacl.EdgeAclHandler"),
                "DatabaseMigrationFunction",
                        List.of("../migrate-function", "dev.pastebin.migrate.DatabaseMigrationHandler"),
                "ModerationFunction", List.of("../moderation-function", "dev.pastebin.moderation.ModerationHandler"),
                "ModerationOutboxFunction",
                        List.of(
                                "../moderation-outbox-function",
                                "dev.pastebin.moderation.outbox.ModerationOutboxHandler")));
        expected.put(
                "DatabaseProtectionFunction",
                List.of("../database-protection-function", "dev.pastebin.dbprotection.DatabaseProtectionHandler"));
        expected.put(
                "PrivateBinFunction",
                List.of(
                        "../privatebin-function",
                        "io.micronaut.function.aws.proxy.payload2.APIGatewayV2HTTPEventFunction"));
        assertEquals(expected.keySet(), Set.copyOf(template.resourcesOfType("AWS::Serverless::Function")));
        expected.forEach((id, codeAndHandler) -> {
            assertEquals(codeAndHandler.get(0), template.properties(id).get("CodeUri"), id);
            assertEquals(codeAndHandler.get(1), template.properties(id).get("Handler"), id);
            assertEquals("java25", template.functionProperty(id, "Runtime"), id);
        });
    }

    /**
     * `sam build` (and the local runtime) build each function with {@code make build-<LogicalId>} in its CodeUri:
     * the template must ask for the makefile build, and that Makefile must have the target. {@code make -n}
     * only prints what it would run, so this checks the target exists without building anything.
     */
    @Test
    void everyFunctionIsBuiltByTheMakefileInItsCodeUri() throws Exception {
        for (String id : template.resourcesOfType("AWS::Serverless::Function")) {
            assertEquals(
                    Map.of("BuildMethod", "makefile"), template.resource(id).get("Metadata"), id + ".Metadata");
            Path codeUri = InfraTemplate.INFRA
                    .resolve((String) template.properties(id).get("CodeUri"))
                    .normalize();
            assertTrue(
                    Files.isRegularFile(codeUri.resolve("Makefile")), id + ": no Makefile in its CodeUri " + codeUri);
            Path artifacts = Files.createTempDirectory("make-n-" + id);
            Process make = new ProcessBuilder(
                            "make", "-n", "-C", codeUri.toString(), "build-" + id, "ARTIFACTS_DIR=" + artifacts)
                    .redirectErrorStream(true)
                    .start();
            String output = new String(make.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, make.waitFor(), id + ": `make -n -C " + codeUri + " build-" + id + "` failed:\n" + output);
            Files.delete(artifacts);
        }
    }

    @Test
    void theRedriveCountExceedsTheUploadAttemptBudget() {
        Map<String, Object> redrive = CloudFormationTemplate.mapping(
                template.properties("UploadQueue").get("RedrivePolicy"), "RedrivePolicy");
        int maxReceiveCount = template.intValue(redrive.get("maxReceiveCount"));
        Map<String, Object> env = template.environment("UploadPasteFunction");
        int maxAttempts = template.intValue(env.get("PASTEBIN_DELIVERY_MAX_ATTEMPTS"));

        assertEquals(
                6, maxAttempts, "the schedule's budget (docs/design.md, \"Retry schedule\"): attempt 1 and 5 retries");
        assertTrue(
                maxReceiveCount > maxAttempts,
                "maxReceiveCount " + maxReceiveCount + " must exceed the function's " + maxAttempts + " attempts");
        // the function is told the same number the queue uses, from the same parameter
        String redriveParameter =
                template.parameterRef(redrive.get("maxReceiveCount")).orElse(null);
        assertNotNull(redriveParameter, "the RedrivePolicy's maxReceiveCount is a parameter");
        assertEquals(
                redriveParameter,
                template.parameterRef(env.get("PASTEBIN_DELIVERY_QUEUE_MAX_RECEIVE_COUNT"))
                        .orElse(null));
        assertEquals(Map.of("Fn::GetAtt", List.of("UploadDeadLetterQueue", "Arn")), redrive.get("deadLetterTargetArn"));
    }

    /**
     * The original specification's give-up rule is one parameter: by default 0, never (a transiently failing
     * paste waits up to the 24 h hold limit); set (6: the specification's rule), the value reaches the upload
     * function's environment, whose variable binds to DeliveryProperties, and nothing else's.
     */
    @Test
    void theGiveUpParameterDefaultsToNeverAndReachesTheUploadFunction() {
        Map<String, Object> parameter = template.parameter("UploadGiveUpAfterAttempts");
        assertEquals("Number", parameter.get("Type"));
        String variable = "PASTEBIN_DELIVERY_GIVE_UP_AFTER_ATTEMPTS";
        Object value = template.environment("UploadPasteFunction").get(variable);
        assertEquals(Optional.of("UploadGiveUpAfterAttempts"), template.parameterRef(value));
        assertEquals(0, template.intValue(value), "the default never gives up");
        for (String other : template.resourcesOfType("AWS::Serverless::Function")) {
            if (!other.equals("UploadPasteFunction")) {
                assertNull(template.environment(other).get(variable), other);
            }
        }
        var overridden = CloudFormationTemplate.load(InfraTemplate.FILE, Map.of("UploadGiveUpAfterAttempts", "6"));
        assertEquals(
                6,
                overridden.intValue(
                        overridden.environment("UploadPasteFunction").get(variable)));

        for (int attempts : new int[] {0, 6}) {
            Map<String, Object> environment = Map.of(variable, Integer.toString(attempts));
            try (ApplicationContext context = ApplicationContext.builder()
                    .deduceEnvironment(false)
                    .environmentPropertySource(false)
                    .propertySources(PropertySource.of(
                            "function-environment",
                            environment,
                            PropertySource.PropertyConvention.ENVIRONMENT_VARIABLE,
                            PropertySource.Origin.of("the template's environment")))
                    .start()) {
                DeliveryProperties delivery = context.getBean(DeliveryProperties.class);
                assertEquals(attempts, delivery.giveUpAfterAttempts());
                assertEquals(attempts > 0, delivery.givesUp());
                assertEquals(
                        Duration.ofHours(24), delivery.holdLimit(), "without give-up a paste waits out the hold limit");
            }
        }
    }

    /**
     * docs/operating.md, "API keys": CreateAccess is anyone unless the operator says api-key, and reaches exactly the
     * functions that create (create and PrivateBin), as api-core's CreateAccessProperties reads it; the local
     * runtime ({@code make run ARGS="--parameter-overrides CreateAccess=api-key"}) resolves it the same way.
     */
    @Test
    void theCreateAccessParameterDefaultsToAnyoneAndReachesTheFunctionsThatCreate() {
        Map<String, Object> parameter = template.parameter("CreateAccess");
        assertEquals("anyone", parameter.get("Default"));
        assertEquals(List.of("anyone", "api-key", "oidc"), parameter.get("AllowedValues"));
        String variable = "PASTEBIN_CREATE_ACCESS";
        Set<String> creating = Set.of("CreatePasteFunction", "PrivateBinFunction");
        for (String function : template.resourcesOfType("AWS::Serverless::Function")) {
            Object value = template.environment(function).get(variable);
            if (creating.contains(function)) {
                assertEquals(Optional.of("CreateAccess"), template.parameterRef(value), function);
            } else {
                assertNull(value, function + " is not told who may create");
            }
        }
        for (String function : creating) {
            assertEquals(
                    "api-key",
                    SamTemplate.read(InfraTemplate.FILE, Map.of("CreateAccess", "api-key"))
                            .function(function)
                            .environment()
                            .get(variable),
                    "the local runtime's --parameter-overrides");
        }
        for (var mode : CreateAccessProperties.Mode.values()) {
            String value = mode.name().toLowerCase(Locale.ROOT).replace('_', '-');
            assertTrue(((List<?>) parameter.get("AllowedValues")).contains(value), value);
            try (ApplicationContext context = ApplicationContext.builder()
                    .deduceEnvironment(false)
                    .environmentPropertySource(false)
                    .propertySources(PropertySource.of(
                            "function-environment",
                            Map.of(variable, value),
                            PropertySource.PropertyConvention.ENVIRONMENT_VARIABLE,
                            PropertySource.Origin.of("the template's environment")))
                    .start()) {
                assertEquals(mode, context.getBean(CreateAccessProperties.class).access());
            }
        }
    }

    /**
     * docs/operating.md, "Private instances": with CreateAccess=oidc every POST route of the functions that create
     * (every create protocol, and PrivateBin's deletes, which share its POST) and the owner's routes under /me/ run
     * API Gateway's JWT authorizer with the operator's issuer and audience, and no other route does; in the other
     * modes the API has no authorizer.
     */
    @Test
    void withOidcEveryCreateRouteAndNoOtherRunsTheJwtAuthorizer() {
        Set<String> creating = Set.of("CreatePasteFunction", "PrivateBinFunction");
        SamTemplate signIn = SamTemplate.read(
                InfraTemplate.FILE,
                Map.of(
                        "CreateAccess",
                        "oidc",
                        "OidcIssuer",
                        "https://login.example.com/realms/team",
                        "OidcAudience",
                        "pastebin"));
        int guarded = 0;
        for (var function : signIn.functions()) {
            for (var route : function.httpRoutes()) {
                boolean creates = (creating.contains(function.logicalId())
                                && (route.method().equals("POST")
                                        || route.method().equals("PUT")))
                        || route.path().startsWith("/me/");
                assertEquals(creates, route.authorization().isPresent(), function.logicalId() + " " + route.routeKey());
                if (creates) {
                    var jwt = route.authorization().orElseThrow().jwt().orElseThrow();
                    assertEquals("SignIn", jwt.name());
                    assertEquals("https://login.example.com/realms/team", jwt.issuer());
                    assertEquals(List.of("pastebin"), jwt.audience());
                    guarded++;
                }
            }
        }
        assertEquals(
                8,
                guarded,
                "POST /pastes, POST /, POST /documents, PUT /{shortCode}, POST /pb/, POST /pb and the owner's two routes");
        for (String mode : List.of("anyone", "api-key")) {
            for (var function : SamTemplate.read(InfraTemplate.FILE, Map.of("CreateAccess", mode))
                    .functions()) {
                function.httpRoutes()
                        .forEach(route -> assertTrue(route.authorization().isEmpty(), mode + " " + route.routeKey()));
            }
        }
    }

    /**
     * docs/design.md, "Circuit breaker": with the default settings the redrive count covers the attempts, a day
     * of holds and 2 spare (ReceiveBudget: the upload function refuses to start otherwise), within SQS's
     * 1,000; and the queue keeps a job for all those receives, each at most a hold, a backoff delay or the
     * visibility timeout long, so retention never drops a job the function still holds.
     */
    @Test
    void theRedriveCountCoversADayOfHoldsAndTheQueueKeepsAJobForAllItsReceives() {
        int maxReceiveCount = template.intValue(CloudFormationTemplate.mapping(
                        template.properties("UploadQueue").get("RedrivePolicy"), "RedrivePolicy")
                .get("maxReceiveCount"));
        int visibility = template.intValue(template.properties("UploadQueue").get("VisibilityTimeout"));
        int retention = template.intValue(template.properties("UploadQueue").get("MessageRetentionPeriod"));
        int maxAttempts =
                template.intValue(template.environment("UploadPasteFunction").get("PASTEBIN_DELIVERY_MAX_ATTEMPTS"));
        try (ApplicationContext context =
                ApplicationContext.builder().deduceEnvironment(false).build().start()) {
            DeliveryProperties delivery = context.getBean(DeliveryProperties.class);
            DeliveryQueueProperties queue = context.getBean(DeliveryQueueProperties.class);
            int held = new ReceiveBudget(delivery, queue, true).heldDeliveriesWithinLimit();

            assertEquals(Duration.ofHours(24), delivery.holdLimit());
            assertTrue(
                    maxReceiveCount >= maxAttempts + held + ReceiveBudget.SLACK
                            && maxReceiveCount <= SqsLimits.MAX_MAX_RECEIVE_COUNT,
                    maxReceiveCount + " receives for " + maxAttempts + " attempts + " + held + " holds + 2 spare");
            assertEquals(queue.maxReceiveCount(), maxReceiveCount, "the function's default is the template's");
            long longestReceive = Math.max(
                    visibility,
                    Math.max(
                            delivery.longestHold().plus(delivery.holdJitter()).toSeconds(),
                            delivery.maxDelay().toSeconds()));
            assertTrue(
                    (long) maxReceiveCount * longestReceive < retention,
                    maxReceiveCount + " x " + longestReceive + " s must stay within the retention of " + retention
                            + " s");
        }
    }

    @Test
    void theVisibilityTimeoutIsAtLeastSixTimesTheUploadTimeoutForEveryAllowedTimeout() {
        int visibility = template.intValue(template.properties("UploadQueue").get("VisibilityTimeout"));
        Object timeout = template.functionProperty("UploadPasteFunction", "Timeout");
        int defaultTimeout = template.intValue(timeout);
        assertTrue(visibility >= 6 * defaultTimeout, visibility + " < 6 x " + defaultTimeout);
        String parameter = template.parameterRef(timeout).orElse(null);
        if (parameter != null) {
            // a deployment may raise the parameter up to its MaxValue: the rule must hold there too
            Object max = template.parameter(parameter).get("MaxValue");
            assertNotNull(max, parameter + " needs a MaxValue that keeps 6x within the visibility timeout");
            assertTrue(visibility >= 6 * Integer.parseInt(String.valueOf(max)), visibility + " < 6 x MaxValue " + max);
        }
    }

    /** Both queues take SQS's largest messages, so the default content limit (the most that fits them) works. */
    @Test
    void bothQueuesHoldTheLargestUploadJob() throws IOException {
        int largestJob = UploadJobCodec.maxEncodedSize(PasteProperties.MAX_CONTENT_BYTES_CAP);
        for (String queue : List.of("UploadQueue", "UploadDeadLetterQueue")) {
            int size = template.intValue(template.properties(queue).get("MaximumMessageSize"));
            assertEquals(UploadJobCodec.SQS_MESSAGE_CEILING, size, queue + ": MaximumMessageSize");
            assertTrue(size >= largestJob, queue + ": MaximumMessageSize " + size + " < largest job " + largestJob);
        }
        // core's UploadJobCodecTest reads the first MaximumMessageSize in the file: it must be the upload queue's
        Matcher first = Pattern.compile("MaximumMessageSize:\\s*(\\d+)").matcher(Files.readString(InfraTemplate.FILE));
        assertTrue(first.find());
        assertEquals(
                template.intValue(template.properties("UploadQueue").get("MaximumMessageSize")),
                Integer.parseInt(first.group(1)));
        assertTrue(Files.readString(InfraTemplate.FILE).indexOf("UploadQueue:") < first.start());
    }

    @Test
    void theDeadLetterQueueKeepsMessagesFourteenDays() {
        assertEquals(
                1_209_600,
                template.intValue(template.properties("UploadDeadLetterQueue").get("MessageRetentionPeriod")));
    }

    /**
     * The sweeper derives when an IN_PROGRESS row counts as stuck from the two queues' retention periods
     * (docs/design.md, "What happens to FAILED rows"): it must be told the queues' real values.
     */
    @Test
    void theSweeperIsToldBothQueuesRetentionPeriods() {
        Map<String, Object> env = template.environment("SweeperFunction");
        int uploadRetention =
                template.intValue(template.properties("UploadQueue").get("MessageRetentionPeriod"));
        int deadLetterRetention =
                template.intValue(template.properties("UploadDeadLetterQueue").get("MessageRetentionPeriod"));

        assertEquals(uploadRetention + "s", env.get("PASTEBIN_SWEEPER_UPLOAD_QUEUE_RETENTION"));
        assertEquals(deadLetterRetention + "s", env.get("PASTEBIN_SWEEPER_DEAD_LETTER_RETENTION"));
        // a dead letter keeps the timestamp of its first send: a DLQ that keeps no longer than the upload queue
        // would drop dead letters on arrival
        assertTrue(deadLetterRetention > uploadRetention, deadLetterRetention + " <= " + uploadRetention);
        assertFalse(env.containsKey("PASTEBIN_SWEEPER_STUCK_AFTER"), "the stuck threshold is derived, not configured");
    }

    @Test
    void theSweeperMayOnlyReceiveAndDeleteDeadLettersAndSendUploadJobs() {
        Map<String, Object> env = template.environment("SweeperFunction");
        assertEquals(Map.of("Ref", "UploadDeadLetterQueue"), env.get("PASTEBIN_UPLOAD_DLQ_URL"));
        assertEquals(Map.of("Ref", "UploadQueue"), env.get("PASTEBIN_UPLOAD_QUEUE_URL"));

        List<Map<String, Object>> sqsPolicies = new java.util.ArrayList<>();
        for (Object policy : (List<?>) template.properties("SweeperFunction").get("Policies")) {
            Map<String, Object> p = CloudFormationTemplate.mapping(policy, "SweeperFunction policy");
            if (p.containsKey("Statement")) {
                for (Object statement : (List<?>) p.get("Statement")) {
                    Map<String, Object> st = CloudFormationTemplate.mapping(statement, "statement");
                    if (st.get("Action").toString().contains("sqs:")) {
                        sqsPolicies.add(st);
                    }
                }
            } else if (p.keySet().stream().anyMatch(name -> name.startsWith("SQS"))) {
                sqsPolicies.add(p);
            }
        }
        assertEquals(
                List.of(
                        Map.of(
                                "SQSSendMessagePolicy",
                                Map.of("QueueName", Map.of("Fn::GetAtt", List.of("UploadQueue", "QueueName")))),
                        Map.of(
                                "Sid",
                                "ReevaluateDeadLetters",
                                "Effect",
                                "Allow",
                                "Action",
                                List.of("sqs:ReceiveMessage", "sqs:DeleteMessage"),
                                "Resource",
                                Map.of("Fn::GetAtt", List.of("UploadDeadLetterQueue", "Arn")))),
                sqsPolicies);
    }

    /**
     * A job past the hold limit is handed to the dead-letter queue by the worker in one delivery (docs/design.md,
     * "Circuit breaker"): the upload function is told the queue and may send to it, and to no other queue.
     */
    @Test
    void theUploadFunctionMayHandOverdueJobsToTheDeadLetterQueue() {
        Map<String, Object> env = template.environment("UploadPasteFunction");
        assertEquals(Map.of("Ref", "UploadDeadLetterQueue"), env.get("PASTEBIN_UPLOAD_DLQ_URL"));

        List<Object> sends = new java.util.ArrayList<>();
        for (Object policy :
                (List<?>) template.properties("UploadPasteFunction").get("Policies")) {
            Map<String, Object> p = CloudFormationTemplate.mapping(policy, "UploadPasteFunction policy");
            if (p.containsKey("SQSSendMessagePolicy")) {
                sends.add(p.get("SQSSendMessagePolicy"));
            }
        }
        assertEquals(
                List.of(Map.of("QueueName", Map.of("Fn::GetAtt", List.of("UploadDeadLetterQueue", "QueueName")))),
                sends);
    }

    /**
     * Listing the bucket reveals every short code: only the sweeper's reconciliation may list the paste prefix and a
     * large paste's staging and files prefixes (docs/design.md, "Orphan objects"), and only the moderation function
     * (which reads every paste's row anyway) a large paste's folders, to take its files down (the outbox function
     * too: TemplateTest's outbox role check); no function may list anything else.
     */
    @Test
    void onlyTheSweeperMayListTheBucketAndOnlyThePasteKeys() {
        Map<String, List<Map<String, Object>>> listing = new java.util.TreeMap<>();
        for (String function : template.resourcesOfType("AWS::Serverless::Function")) {
            for (Object policy : (List<?>) template.properties(function).getOrDefault("Policies", List.of())) {
                Map<String, Object> p = CloudFormationTemplate.mapping(policy, function + " policy");
                for (Object statement : p.containsKey("Statement") ? (List<?>) p.get("Statement") : List.of()) {
                    Map<String, Object> st = CloudFormationTemplate.mapping(statement, "statement");
                    if (st.get("Action").toString().contains("s3:List")) {
                        listing.computeIfAbsent(function, f -> new java.util.ArrayList<>())
                                .add(st);
                    }
                }
            }
        }
        assertEquals(1, listing.remove("ModerationFunction").size());
        assertEquals(
                Map.of(
                        "SweeperFunction",
                        List.of(Map.of(
                                "Sid",
                                "ListPasteKeys",
                                "Effect",
                                "Allow",
                                "Action",
                                List.of("s3:ListBucket"),
                                "Resource",
                                Map.of("Fn::GetAtt", List.of("PasteBucket", "Arn")),
                                "Condition",
                                Map.of(
                                        "StringLike",
                                        Map.of(
                                                "s3:prefix",
                                                List.of(
                                                        "pastes/",
                                                        "pastes/*",
                                                        "staging/",
                                                        "staging/*",
                                                        "files/",
                                                        "files/*")))))),
                listing);
    }

    /**
     * The outbox function runs outside the VPC (an intrinsic replaces the Globals' VpcConfig whole) with a role of
     * its own (SAM's would carry the VPC access policy): its log group, X-Ray, consuming the outbox queue,
     * invalidating the stack's distribution only, deleting paste objects and large pastes' files only (a takedown's,
     * when S3 refused the moderation function's own delete; the files found by listing their folders) and publishing
     * to the abuse topic only. The moderation function may delete and list those and send to the outbox, nothing
     * else.
     */
    @Test
    void theModerationFunctionsHaveOnlyTheRightsTheirCommandsNeed() {
        Map<String, Object> function = template.properties("ModerationOutboxFunction");
        assertEquals(Map.of("Ref", "AWS::NoValue"), function.get("VpcConfig"));
        assertEquals(Map.of("Fn::GetAtt", List.of("ModerationOutboxRole", "Arn")), function.get("Role"));
        assertFalse(function.containsKey("Policies"), "SAM ignores Policies beside a Role");
        Map<String, Object> role = template.properties("ModerationOutboxRole");
        assertFalse(role.containsKey("ManagedPolicyArns"), role.toString());
        Map<String, Map<String, Object>> outbox = new java.util.LinkedHashMap<>();
        for (Object policy : (List<?>) role.get("Policies")) {
            Map<String, Object> document = CloudFormationTemplate.mapping(
                    CloudFormationTemplate.mapping(policy, "role policy").get("PolicyDocument"), "PolicyDocument");
            for (Object statement : (List<?>) document.get("Statement")) {
                Map<String, Object> st = CloudFormationTemplate.mapping(statement, "statement");
                assertEquals("Allow", st.get("Effect"), st.toString());
                outbox.put((String) st.get("Sid"), st);
            }
        }
        assertEquals(
                List.of(
                        "WriteItsLogs",
                        "Trace",
                        "ConsumeTheOutbox",
                        "InvalidateTheEdge",
                        "DeleteTakenDownPasteObjects",
                        "ListTakenDownFiles",
                        "NotifyTheOperator"),
                List.copyOf(outbox.keySet()));
        assertEquals(
                List.of("logs:CreateLogStream", "logs:PutLogEvents"),
                outbox.get("WriteItsLogs").get("Action"));
        assertEquals(
                Map.of("Fn::GetAtt", List.of("ModerationOutboxLogGroup", "Arn")),
                outbox.get("WriteItsLogs").get("Resource"));
        assertEquals(
                List.of("xray:PutTraceSegments", "xray:PutTelemetryRecords"),
                outbox.get("Trace").get("Action"));
        assertEquals(
                List.of(
                        "sqs:ReceiveMessage",
                        "sqs:DeleteMessage",
                        "sqs:GetQueueAttributes",
                        "sqs:ChangeMessageVisibility"),
                outbox.get("ConsumeTheOutbox").get("Action"));
        assertEquals(
                Map.of("Fn::GetAtt", List.of("ModerationOutboxQueue", "Arn")),
                outbox.get("ConsumeTheOutbox").get("Resource"));
        assertEquals(
                List.of("cloudfront:CreateInvalidation"),
                outbox.get("InvalidateTheEdge").get("Action"));
        assertEquals(
                Map.of(
                        "Fn::If",
                        List.of(
                                "EdgeOn",
                                Map.of(
                                        "Fn::Sub",
                                        "arn:${AWS::Partition}:cloudfront::${AWS::AccountId}:distribution/${EdgeDistribution}"),
                                Map.of(
                                        "Fn::Sub",
                                        "arn:${AWS::Partition}:cloudfront::${AWS::AccountId}:distribution/none"))),
                outbox.get("InvalidateTheEdge").get("Resource"));
        assertEquals(
                List.of("s3:DeleteObject"),
                outbox.get("DeleteTakenDownPasteObjects").get("Action"));
        assertEquals(
                TAKEN_DOWN_OBJECTS, outbox.get("DeleteTakenDownPasteObjects").get("Resource"));
        assertTakenDownFilesListed(outbox.get("ListTakenDownFiles"));
        assertEquals(List.of("sns:Publish"), outbox.get("NotifyTheOperator").get("Action"));
        assertEquals(
                Map.of("Ref", "AbuseNotificationTopic"),
                outbox.get("NotifyTheOperator").get("Resource"));

        List<Map<String, Object>> moderation = inlineStatements("ModerationFunction");
        assertEquals(2, moderation.size(), moderation.toString());
        assertEquals(List.of("s3:DeleteObject"), moderation.getFirst().get("Action"));
        assertEquals(TAKEN_DOWN_OBJECTS, moderation.getFirst().get("Resource"));
        assertTakenDownFilesListed(moderation.get(1));
        assertFalse(template.properties("ModerationFunction").containsKey("VpcConfig"), "the Globals' VPC");
    }

    /** A takedown deletes the paste's object and a large paste's files, staged or verified, and nothing else. */
    private static final List<Map<String, String>> TAKEN_DOWN_OBJECTS = List.of(
            Map.of("Fn::Sub", "${PasteBucket.Arn}/pastes/*"),
            Map.of("Fn::Sub", "${PasteBucket.Arn}/staging/*"),
            Map.of("Fn::Sub", "${PasteBucket.Arn}/files/*"));

    /** ... which it finds by listing a large paste's two folders, and no other prefix. */
    private static void assertTakenDownFilesListed(Map<String, Object> statement) {
        assertEquals(List.of("s3:ListBucket"), statement.get("Action"));
        assertEquals(Map.of("Fn::GetAtt", List.of("PasteBucket", "Arn")), statement.get("Resource"));
        assertEquals(
                Map.of("StringLike", Map.of("s3:prefix", List.of("staging/*", "files/*"))), statement.get("Condition"));
    }

    private List<Map<String, Object>> inlineStatements(String function) {
        List<Map<String, Object>> statements = new java.util.ArrayList<>();
        for (Object policy : (List<?>) template.properties(function).getOrDefault("Policies", List.of())) {
            Map<String, Object> p = CloudFormationTemplate.mapping(policy, function + " policy");
            if (p.containsKey("Statement")) {
                for (Object statement : (List<?>) p.get("Statement")) {
                    statements.add(CloudFormationTemplate.mapping(statement, "statement"));
                }
            }
        }
        return statements;
    }

    @Test
    void readKeepsReadOnlyRightsAndRemoveMayOnlyReadAndDeletePasteObjects() {
        List<String> readPolicies = ((List<?>)
                        template.properties("ReadPasteFunction").get("Policies"))
                .stream()
                        .map(p -> CloudFormationTemplate.mapping(p, "ReadPasteFunction policy")
                                .keySet()
                                .iterator()
                                .next())
                        .toList();
        // its S3 statement (GetObject on the paste keys and a large paste's files) is checked by ProductionLimitsTest
        assertEquals(List.of("Statement", "AWSSecretsManagerGetSecretValuePolicy"), readPolicies);

        List<Map<String, Object>> statements = new java.util.ArrayList<>();
        List<String> templates = new java.util.ArrayList<>();
        for (Object policy :
                (List<?>) template.properties("RemovePasteFunction").get("Policies")) {
            Map<String, Object> p = CloudFormationTemplate.mapping(policy, "RemovePasteFunction policy");
            if (p.containsKey("Statement")) {
                for (Object statement : (List<?>) p.get("Statement")) {
                    statements.add(CloudFormationTemplate.mapping(statement, "statement"));
                }
            } else {
                templates.addAll(p.keySet());
            }
        }
        assertEquals(List.of("AWSSecretsManagerGetSecretValuePolicy"), templates);
        assertEquals(3, statements.size());
        assertEquals(
                List.of("s3:GetObject", "s3:DeleteObject"),
                statements.getFirst().get("Action"));
        assertEquals(
                Map.of("Fn::Sub", "${PasteBucket.Arn}/pastes/*"),
                statements.getFirst().get("Resource"));
        // a large paste's files (docs/design.md, "Large files: straight to S3"): deleted, never read through it
        assertEquals(List.of("s3:DeleteObject"), statements.get(1).get("Action"));
        assertEquals(
                List.of(
                        Map.of("Fn::Sub", "${PasteBucket.Arn}/staging/*"),
                        Map.of("Fn::Sub", "${PasteBucket.Arn}/files/*")),
                statements.get(1).get("Resource"));
        // but a read-once one's reveal signs GETs of its verified files, which S3 authorizes as this role
        // (docs/design.md, "Reading once")
        assertEquals("RevealLargeFiles", statements.get(2).get("Sid"));
        assertEquals(List.of("s3:GetObject"), statements.get(2).get("Action"));
        assertEquals(
                Map.of("Fn::Sub", "${PasteBucket.Arn}/files/*"),
                statements.get(2).get("Resource"));
    }

    @Test
    void theUploadEventSourceReportsBatchItemFailuresAndLimitsConcurrency() {
        Map<String, Object> sqs = event("UploadPasteFunction", "SQS");
        assertEquals(List.of("ReportBatchItemFailures"), sqs.get("FunctionResponseTypes"));
        assertEquals(Map.of("Fn::GetAtt", List.of("UploadQueue", "Arn")), sqs.get("Queue"));
        int batchSize = template.intValue(sqs.get("BatchSize"));
        assertTrue(batchSize >= 1 && batchSize <= 10, "BatchSize " + batchSize);
        assertNotNull(sqs.get("MaximumBatchingWindowInSeconds"));
        Map<String, Object> scaling = CloudFormationTemplate.mapping(sqs.get("ScalingConfig"), "ScalingConfig");
        assertTrue(template.intValue(scaling.get("MaximumConcurrency")) >= 2, "SQS allows 2 at least");
        // a function-level DeadLetterQueue only applies to asynchronous invokes, never to an SQS source
        assertNull(template.properties("UploadPasteFunction").get("DeadLetterQueue"));
    }

    @Test
    void theHttpApiRoutesUsePayloadFormatTwo() {
        assertEquals(
                Set.of("POST /pastes", "POST /", "POST /documents", "PUT /{shortCode}"), routes("CreatePasteFunction"));
        assertEquals(
                Set.of(
                        "GET /pastes/{shortCode}",
                        "HEAD /pastes/{shortCode}",
                        "GET /",
                        "GET /p/{shortCode}",
                        "GET /assets/{file}",
                        "GET /documents/{key}",
                        "GET /raw/{key}",
                        "GET /{shortCode}",
                        "GET /.well-known/security.txt",
                        "GET /me/pastes"),
                routes("ReadPasteFunction"));
        assertEquals(Set.of("POST /pastes/{shortCode}/report"), routes("ReportPasteFunction"));
        // PrivateBin's one URL, with and without its slash (the HTTP API routes them apart)
        assertEquals(Set.of("GET /pb/", "POST /pb/", "GET /pb", "POST /pb"), routes("PrivateBinFunction"));
        assertEquals(
                Set.of(
                        "DELETE /pastes/{shortCode}",
                        "POST /pastes/{shortCode}/reveal",
                        "DELETE /me/pastes/{shortCode}"),
                routes("RemovePasteFunction"));
        Map<String, Object> api = template.properties("HttpApi");
        Map<String, Object> throttling =
                CloudFormationTemplate.mapping(api.get("DefaultRouteSettings"), "DefaultRouteSettings");
        assertNotNull(throttling.get("ThrottlingRateLimit"));
        assertNotNull(throttling.get("ThrottlingBurstLimit"));
    }

    @Test
    void theSweeperRunsEveryFiveMinutesAndEndsBeforeTheNextRun() {
        Map<String, Object> schedule = event("SweeperFunction", "Schedule");
        String parameter = template.parameterRef(schedule.get("Schedule")).orElse(null);
        assertNotNull(parameter, "the schedule is a parameter");
        // Its OldestInProgressAge gauge is what the stuck-paste alarm watches: one value per 5-minute period.
        assertEquals("rate(5 minutes)", template.parameter(parameter).get("Default"));
        int timeout = ((Number) template.properties("SweeperFunction").get("Timeout")).intValue();
        assertTrue(timeout < 300, "a sweep ends before the next one starts: " + timeout + " s");
    }

    @Test
    void theBucketIsEncryptedPrivateAndDeniesPlainHttp() {
        Map<String, Object> bucket = template.properties("PasteBucket");
        assertNotNull(bucket.get("BucketEncryption"));
        assertEquals(
                Map.of(
                        "BlockPublicAcls",
                        true,
                        "BlockPublicPolicy",
                        true,
                        "IgnorePublicAcls",
                        true,
                        "RestrictPublicBuckets",
                        true),
                bucket.get("PublicAccessBlockConfiguration"));
        String policyId = template.resourcesOfType("AWS::S3::BucketPolicy").getFirst();
        assertEquals(Map.of("Ref", "PasteBucket"), template.properties(policyId).get("Bucket"));
        String policy = template.properties(policyId).get("PolicyDocument").toString();
        assertTrue(policy.contains("Effect=Deny") && policy.contains("aws:SecureTransport=false"), policy);
    }

    /**
     * The web page PUTs a large paste's files to their pre-signed URLs and reads them from S3: the bucket's CORS lets
     * it send exactly the headers a pre-signed PUT signs that a script can set (Content-Length is the browser's) and
     * read the ETag, for PUT and GET only.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theBucketLetsTheWebPagePutAndGetFilesWithTheSignedHeaders() {
        Map<String, Object> cors =
                (Map<String, Object>) template.properties("PasteBucket").get("CorsConfiguration");
        assertNotNull(cors, "the bucket has a CORS configuration");
        List<Map<String, Object>> rules = (List<Map<String, Object>>) cors.get("CorsRules");
        assertEquals(1, rules.size(), rules.toString());
        Map<String, Object> rule = rules.getFirst();
        assertEquals(List.of("PUT", "GET"), rule.get("AllowedMethods"));
        assertEquals(List.of("content-type", "x-amz-checksum-sha256"), rule.get("AllowedHeaders"));
        assertEquals(List.of("ETag"), rule.get("ExposedHeaders"));
        assertEquals(List.of("*"), rule.get("AllowedOrigins"));
    }

    /**
     * The trust anchor of the database's TLS is one parameter every function follows, with exactly the values
     * core's DatabaseTlsProperties knows, and the CA bundle is packed where that property's default looks for it
     * (Lambda unpacks the artifact under /var/task).
     */
    @Test
    void everyFunctionTrustsTheDatabaseCertificateTheParameterChooses() throws Exception {
        List<String> anchors = Arrays.stream(DatabaseTlsProperties.TrustAnchor.values())
                .map(anchor -> anchor.name().toLowerCase(Locale.ROOT).replace('_', '-'))
                .toList();
        assertEquals(anchors, template.parameter("DatabaseTrustAnchor").get("AllowedValues"));
        assertEquals("ca-bundle", template.parameter("DatabaseTrustAnchor").get("Default"));
        for (String function : InfraTemplate.PRODUCT_FUNCTIONS) {
            assertEquals(
                    Optional.of("DatabaseTrustAnchor"),
                    template.parameterRef(template.environment(function).get("PASTEBIN_DATABASE_TLS_TRUST_ANCHOR")),
                    function);
            // DatabaseUrl's pattern cannot see a later, weaker sslmode; DatabaseTls refuses it at Init
            assertEquals("true", template.environment(function).get("PASTEBIN_DATABASE_TLS_REQUIRED"), function);
        }
        String zip = Files.readString(InfraTemplate.INFRA.resolve("lambda-zip.xml"));
        assertTrue(
                zip.contains("<directory>${maven.multiModuleProjectDirectory}/infra/tls</directory>")
                        && zip.contains("<include>database-ca-bundle.pem</include>")
                        && zip.contains("<outputDirectory>tls</outputDirectory>")
                        && DatabaseTlsProperties.PACKED_CA_BUNDLE.equals("/var/task/tls/database-ca-bundle.pem"),
                "lambda-zip.xml packs infra/tls/database-ca-bundle.pem where pastebin.database.tls.ca-bundle expects it: "
                        + DatabaseTlsProperties.PACKED_CA_BUNDLE);
    }

    @Test
    void noPasswordIsAParameterOrAnEnvironmentVariable() {
        CloudFormationTemplate.mapping(template.root().get("Parameters"), "Parameters")
                .forEach((name, p) -> {
                    assertFalse(name.toLowerCase(Locale.ROOT).contains("password"), "parameter " + name);
                });
        for (String function : template.resourcesOfType("AWS::Serverless::Function")) {
            template.environment(function)
                    .keySet()
                    .forEach(name -> assertFalse(name.contains("PASSWORD"), function + " sets " + name));
            if (!InfraTemplate.PRODUCT_FUNCTIONS.contains(function)) {
                // no database (the outbox and edge functions), or its secrets named by the DatabaseSchema resource
                // (the migration function), not by its environment
                continue;
            }
            assertEquals(
                    "PASTEBIN_DATABASE_SECRET_ID",
                    template.environment(function).keySet().stream()
                            .filter(n -> n.contains("SECRET"))
                            .findFirst()
                            .orElse(null),
                    function);
        }
    }

    /**
     * A value an environment variable resolves from Secrets Manager ({@code {{resolve:secretsmanager:...}}}) is part
     * of the function's configuration, which {@code lambda:GetFunctionConfiguration} shows to whoever may read it: a
     * function is given the secret's ARN and reads the value itself, with GetSecretValue on that one secret. The
     * edge's origin header is the one exception: CloudFront sends it on every request and the distribution's
     * configuration holds it too ({@code cloudfront:GetDistributionConfig} shows it), and it only proves that a
     * request came through the edge (docs/design.md, "Edge").
     */
    @Test
    void noFunctionEnvironmentHoldsASecretsValueButTheEdgesOriginHeader() {
        Set<String> originHeader = Set.of("PASTEBIN_EDGE_ORIGIN_SECRET", "PASTEBIN_EDGE_PREVIOUS_ORIGIN_SECRET");
        List<String> resolved = new java.util.ArrayList<>();
        for (String function : template.resourcesOfType("AWS::Serverless::Function")) {
            template.environment(function).forEach((name, value) -> {
                if (String.valueOf(value).contains("{{resolve:secretsmanager") && !originHeader.contains(name)) {
                    resolved.add(function + "." + name + " = " + value);
                }
            });
        }
        assertEquals(List.of(), resolved, "environment variables that hold a secret's value");

        // the reporters' HMAC key: its secret's ARN, and the right to read that secret besides the database's
        assertEquals(
                Map.of("Ref", "ReportAddressKeySecret"),
                template.environment("ReportPasteFunction").get("PASTEBIN_REPORT_ADDRESS_KEY_SECRET_ID"));
        List<Object> readable = ((List<?>)
                        template.properties("ReportPasteFunction").get("Policies"))
                .stream()
                        .map(p -> CloudFormationTemplate.mapping(p, "policy"))
                        .filter(p -> p.containsKey("AWSSecretsManagerGetSecretValuePolicy"))
                        .map(p -> CloudFormationTemplate.mapping(
                                        p.get("AWSSecretsManagerGetSecretValuePolicy"), "policy")
                                .get("SecretArn"))
                        .toList();
        assertTrue(readable.contains(Map.of("Ref", "ReportAddressKeySecret")), readable.toString());
        assertEquals(2, readable.size(), "its database secret and the key's: " + readable);
    }

    @Test
    void everyInlinePolicyStatementHasASidAndEveryFunctionALogGroupWithRetention() {
        for (String function : template.resourcesOfType("AWS::Serverless::Function")) {
            // EdgeAclFunction's and ModerationOutboxFunction's roles are their own resources: no SAM policies.
            Object policies = template.properties(function).getOrDefault("Policies", List.of());
            for (Object policy : (List<?>) policies) {
                Map<String, Object> p = CloudFormationTemplate.mapping(policy, function + " policy");
                if (p.containsKey("Statement")) {
                    for (Object statement : (List<?>) p.get("Statement")) {
                        assertNotNull(
                                CloudFormationTemplate.mapping(statement, "statement")
                                        .get("Sid"),
                                function + ": inline statement without Sid");
                    }
                }
            }
            Map<String, Object> logging = CloudFormationTemplate.mapping(
                    template.properties(function).get("LoggingConfig"), function + ".LoggingConfig");
            String group = (String) CloudFormationTemplate.mapping(logging.get("LogGroup"), "LogGroup")
                    .get("Ref");
            assertEquals("AWS::Logs::LogGroup", template.type(group), function);
            assertNotNull(template.properties(group).get("RetentionInDays"), group);
        }
    }

    @Test
    void alarmsWatchTheDeadLetterDepthAndTheOldestUploadMessage() {
        Map<String, String> watched = new java.util.HashMap<>();
        for (String alarm : template.resourcesOfType("AWS::CloudWatch::Alarm")) {
            Map<String, Object> p = template.properties(alarm);
            for (Object d : (List<?>) p.get("Dimensions")) {
                Object value = CloudFormationTemplate.mapping(d, "dimension").get("Value");
                watched.put(p.get("MetricName") + "", value.toString());
            }
        }
        assertTrue(
                watched.getOrDefault("ApproximateNumberOfMessagesVisible", "").contains("UploadDeadLetterQueue"),
                watched.toString());
        assertTrue(
                watched.getOrDefault("ApproximateAgeOfOldestMessage", "").contains("UploadQueue"), watched.toString());
    }

    @Test
    void theOutputsNameTheApiQueuesAndBucket() {
        Map<String, Object> outputs =
                CloudFormationTemplate.mapping(template.root().get("Outputs"), "Outputs");
        assertTrue(
                outputs.keySet()
                        .containsAll(List.of(
                                "ApiUrl",
                                "UploadQueueUrl",
                                "UploadQueueArn",
                                "UploadDeadLetterQueueUrl",
                                "UploadDeadLetterQueueArn",
                                "PasteBucketName")),
                outputs.keySet().toString());
    }

    /**
     * The SchemaVersion output, which {@code infra/admin verify} compares with the newest migration, is the
     * DatabaseSchema resource's answer: the key the migration function puts in its answer's Data
     * (migrate-function's DatabaseMigrationFunctionIT checks the built function answers it).
     */
    @Test
    void theSchemaVersionOutputIsWhatTheMigrationFunctionAnswers() throws IOException {
        Map<String, Object> outputs =
                CloudFormationTemplate.mapping(template.root().get("Outputs"), "Outputs");
        Map<String, Object> output = CloudFormationTemplate.mapping(outputs.get("SchemaVersion"), "SchemaVersion");
        assertEquals(Map.of("Fn::GetAtt", List.of("DatabaseSchema", "SchemaVersion")), output.get("Value"));
        assertEquals("Custom::DatabaseSchema", template.type("DatabaseSchema"));
        String handler = Files.readString(InfraTemplate.INFRA.resolve(
                "../migrate-function/src/main/java/dev/pastebin/migrate/DatabaseMigrationHandler.java"));
        assertTrue(
                handler.contains(".value(Map.of(\"SchemaVersion\", "),
                "DatabaseMigrationHandler answers the version as Data.SchemaVersion");
    }

    private Map<String, Object> event(String function, String type) {
        Map<String, Object> events =
                CloudFormationTemplate.mapping(template.properties(function).get("Events"), function + ".Events");
        List<Map<String, Object>> ofType = events.values().stream()
                .map(e -> CloudFormationTemplate.mapping(e, "event"))
                .filter(e -> type.equals(e.get("Type")))
                .toList();
        assertEquals(1, ofType.size(), function + " has one " + type + " event");
        return CloudFormationTemplate.mapping(ofType.getFirst().get("Properties"), "event properties");
    }

    /** The function's routes as API Gateway's route keys ("GET /pastes/{shortCode}"). */
    private Set<String> routes(String function) {
        Set<String> routes = new java.util.HashSet<>();
        Map<String, Object> events =
                CloudFormationTemplate.mapping(template.properties(function).get("Events"), function + ".Events");
        for (Object e : events.values()) {
            Map<String, Object> event = CloudFormationTemplate.mapping(e, "event");
            assertEquals("HttpApi", event.get("Type"));
            Map<String, Object> p = CloudFormationTemplate.mapping(event.get("Properties"), "properties");
            assertEquals("2.0", p.get("PayloadFormatVersion"), function);
            assertEquals(Map.of("Ref", "HttpApi"), p.get("ApiId"), function);
            routes.add(p.get("Method") + " " + p.get("Path"));
        }
        return routes;
    }
}
