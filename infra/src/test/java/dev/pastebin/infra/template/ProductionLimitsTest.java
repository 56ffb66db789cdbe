package dev.pastebin.infra.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.local.template.CloudFormationTemplate;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The production limits infra/template.yaml sets (docs/operating.md, "Production limits"): database connections within a
 * budget, timeouts on every database socket, TLS that verifies the server, least privilege on data.
 */
class ProductionLimitsTest {

    private static final Pattern POOL_SIZE = Pattern.compile("maximum-pool-size:\\s*(\\S+)");

    private final CloudFormationTemplate template = InfraTemplate.load();

    /** Every function's concurrency bound times its pool size, summed, fits the stated budget. */
    @Test
    void theFunctionsConnectionsFitTheDatabaseConnectionBudget() throws IOException {
        int total = 0;
        List<String> terms = new ArrayList<>();
        for (String function : InfraTemplate.PRODUCT_FUNCTIONS) {
            Object reserved = template.properties(function).get("ReservedConcurrentExecutions");
            assertNotNull(reserved, function + " has no reserved concurrency: its connections are unbounded");
            int concurrency = template.intValue(reserved);
            int pool = poolSize(function);
            total += concurrency * pool;
            terms.add(function + " " + concurrency + " x " + pool);
        }
        int budget = template.intValue(Map.of("Ref", "DatabaseConnectionBudget"));
        assertTrue(total <= budget, "connections " + terms + " = " + total + " exceed the budget " + budget);
        // the upload event source may not run more instances than the reserved concurrency admits
        Map<String, Object> scaling = CloudFormationTemplate.mapping(sqsEvent().get("ScalingConfig"), "ScalingConfig");
        assertEquals(
                template.properties("UploadPasteFunction").get("ReservedConcurrentExecutions"),
                scaling.get("MaximumConcurrency"));
    }

    /**
     * The capacity model's first step (docs/scale.md, "Capacity model", 10 creates and 100 reads a second) needs no
     * parameter set: it passes the HTTP API's per-route throttle, and the read function's reserved concurrency
     * serves it at the model's 40 ms a read.
     */
    @Test
    void theDefaultsCarryTheCapacityModelsFirstStep() {
        int readsPerSecond = 100;
        double secondsPerRead = 0.040;
        Map<String, Object> throttling = CloudFormationTemplate.mapping(
                template.properties("HttpApi").get("DefaultRouteSettings"), "DefaultRouteSettings");
        int routeRate = template.intValue(throttling.get("ThrottlingRateLimit"));
        assertTrue(
                routeRate >= readsPerSecond,
                "the read route is throttled at " + routeRate + " requests/s, below the " + "first step's "
                        + readsPerSecond + " reads/s (ApiThrottlingRateLimit)");
        int readConcurrency =
                template.intValue(template.properties("ReadPasteFunction").get("ReservedConcurrentExecutions"));
        assertTrue(
                readConcurrency >= readsPerSecond * secondsPerRead,
                "ReadReservedConcurrency " + readConcurrency + " serves fewer than " + readsPerSecond + " reads/s");
    }

    /** The pool size a function's configuration gives it: its application.yml, with the template's parallelism. */
    private int poolSize(String function) throws IOException {
        String codeUri = (String) template.properties(function).get("CodeUri");
        String yaml =
                Files.readString(InfraTemplate.INFRA.resolve(codeUri).resolve("src/main/resources/application.yml"));
        Matcher size = POOL_SIZE.matcher(yaml);
        assertTrue(size.find(), codeUri + "'s application.yml sets datasources.default.maximum-pool-size");
        String value = size.group(1);
        if (value.equals("${pastebin.upload.parallelism:4}")) {
            Object parallelism = template.environment(function).get("PASTEBIN_UPLOAD_PARALLELISM");
            assertNotNull(parallelism, function + ": the template sets the parallelism its pool follows");
            return template.intValue(parallelism);
        }
        return Integer.parseInt(value);
    }

    @Test
    void theDatabaseUrlMustVerifyTheServersCertificateAndHostName() {
        Pattern allowed =
                Pattern.compile((String) template.parameter("DatabaseUrl").get("AllowedPattern"));
        for (String url : List.of(
                "jdbc:postgresql://db.example.internal:5432/pastebin?sslmode=verify-full",
                "jdbc:postgresql://db:5432/pastebin?ssl=true&sslmode=verify-full&ApplicationName=pastebin")) {
            assertTrue(allowed.matcher(url).matches(), url);
        }
        for (String url : List.of(
                "jdbc:postgresql://db:5432/pastebin",
                "jdbc:postgresql://db:5432/pastebin?sslmode=require",
                "jdbc:postgresql://db:5432/pastebin?sslmode=verify-ca",
                "jdbc:postgresql://db:5432/pastebin?sslmode=verify-fullx",
                "jdbc:postgresql://db/sslmode=verify-full",
                "jdbc:postgresql://db:5432/pastebin?xsslmode=verify-full",
                "jdbc:mysql://db:3306/pastebin?sslmode=verify-full")) {
            assertFalse(allowed.matcher(url).matches(), url);
        }
    }

    /** connectTimeout and socketTimeout (seconds) on every function's URL, well inside its Lambda timeout. */
    @Test
    void everyFunctionsDatabaseUrlBoundsConnectingAndReading() {
        for (String function : template.resourcesOfType("AWS::Serverless::Function")) {
            String sub = databaseUrlSub(template.environment(function).get("DATASOURCES_DEFAULT_URL"), function);
            assertTrue(sub.startsWith("${DatabaseUrl}&"), function + ": the database's URL, then the timeouts: " + sub);
            int timeout = template.intValue(template.functionProperty(function, "Timeout"));
            int connect = urlSeconds(sub, "connectTimeout");
            int socket = urlSeconds(sub, "socketTimeout");
            assertTrue(
                    connect > 0 && 2 * connect < timeout, function + ": connectTimeout " + connect + " of " + timeout);
            assertTrue(socket > 0 && 2 * socket <= timeout, function + ": socketTimeout " + socket + " of " + timeout);
        }
        // the upload worker's: just above its statement_timeout, so one record's worst case stays in its margin
        String upload = databaseUrlSub(
                template.environment("UploadPasteFunction").get("DATASOURCES_DEFAULT_URL"), "UploadPasteFunction");
        assertEquals(3, urlSeconds(upload, "socketTimeout"));
    }

    /**
     * The URL's text: {@code !Sub [text, {DatabaseUrl: !If [DatabaseCreated, the cluster's URL, !Ref DatabaseUrl]}]},
     * the same database whichever the mode, then the function's timeouts.
     */
    private static String databaseUrlSub(Object url, String function) {
        assertTrue(url instanceof Map<?, ?> m && m.get("Fn::Sub") instanceof List<?>, function + ": " + url);
        List<?> sub = (List<?>) ((Map<?, ?>) url).get("Fn::Sub");
        Map<String, Object> variables = CloudFormationTemplate.mapping(sub.get(1), function + " URL variables");
        assertEquals(
                Map.of(
                        "Fn::If",
                        List.of(
                                "DatabaseCreated",
                                Map.of(
                                        "Fn::Sub",
                                        "jdbc:postgresql://${DatabaseCluster.Endpoint.Address}:${DatabaseCluster.Endpoint.Port}/pastebin?sslmode=verify-full"),
                                Map.of("Ref", "DatabaseUrl"))),
                variables.get("DatabaseUrl"),
                function);
        return (String) sub.get(0);
    }

    private static int urlSeconds(String url, String parameter) {
        Matcher m = Pattern.compile("[?&]" + parameter + "=(\\d+)").matcher(url);
        assertTrue(m.find(), parameter + " in " + url);
        return Integer.parseInt(m.group(1));
    }

    /** One database role per function: its own secret, and the right to read that secret only. */
    @Test
    void everyFunctionReadsOnlyItsOwnDatabaseRolesSecret() {
        Set<Object> secrets = new HashSet<>();
        for (String function : InfraTemplate.PRODUCT_FUNCTIONS) {
            Object secret = template.environment(function).get("PASTEBIN_DATABASE_SECRET_ID");
            // the generated secret (DatabaseMode create) or the parameter (existing)
            List<?> choice =
                    (List<?>) CloudFormationTemplate.mapping(secret, function).get("Fn::If");
            assertNotNull(choice, function + ": " + secret);
            assertEquals("DatabaseCreated", choice.get(0), function);
            String generated = String.valueOf(
                    CloudFormationTemplate.mapping(choice.get(1), function).get("Ref"));
            assertEquals("AWS::SecretsManager::Secret", template.type(generated), function);
            assertTrue(secrets.add(generated), function + " shares " + generated + " with another function");
            String parameter = template.parameterRef(choice.get(2)).orElse(null);
            assertNotNull(parameter, function + ": with an existing database its secret is a parameter");
            assertTrue(secrets.add(parameter), function + " shares " + parameter + " with another function");
            assertTrue(parameter.endsWith("DatabaseSecretArn"), parameter);
            List<Object> granted = new ArrayList<>();
            for (Object policy : (List<?>) template.properties(function).getOrDefault("Policies", List.of())) {
                Map<String, Object> p = CloudFormationTemplate.mapping(policy, function + " policy");
                if (p.containsKey("AWSSecretsManagerGetSecretValuePolicy")) {
                    granted.add(CloudFormationTemplate.mapping(p.get("AWSSecretsManagerGetSecretValuePolicy"), "policy")
                            .get("SecretArn"));
                }
            }
            List<Object> readable = new ArrayList<>(List.of(secret));
            if (function.equals("ReportPasteFunction")) {
                // and the reporters' HMAC key, which it reads at start (TemplateTest, no secret's value in an
                // environment)
                readable.add(Map.of("Ref", "ReportAddressKeySecret"));
            }
            assertEquals(readable, granted, function);
        }
        assertFalse(template.parameters().containsKey("DatabaseSecretArn"), "no secret shared by every function");
    }

    /**
     * S3 rights on objects are on the paste keys only; no function may list the bucket (every short code) but
     * the sweeper, under the paste prefix (TemplateTest checks its condition). The sweeper also reads and writes
     * the one marker key of its sweep epoch, and nothing else outside the prefix.
     */
    @Test
    void s3RightsAreScopedToThePastePrefixAndReadCanOnlyGetObjects() {
        assertEquals(
                List.of(
                        Map.of(
                                "Sid",
                                "ReadPasteObjects",
                                "Effect",
                                "Allow",
                                "Action",
                                List.of("s3:GetObject"),
                                "Resource",
                                Map.of("Fn::Sub", "${PasteBucket.Arn}/pastes/*")),
                        // a large paste's read is a pre-signed GET of its verified file, which S3 authorizes as the
                        // role that signed it (docs/design.md, "Large files: straight to S3")
                        Map.of(
                                "Sid",
                                "ReadLargeFiles",
                                "Effect",
                                "Allow",
                                "Action",
                                List.of("s3:GetObject"),
                                "Resource",
                                Map.of("Fn::Sub", "${PasteBucket.Arn}/files/*"))),
                s3Statements("ReadPasteFunction"));
        for (String function : InfraTemplate.PRODUCT_FUNCTIONS) {
            for (Map<String, Object> statement : s3Statements(function)) {
                if (function.equals("SweeperFunction") && "ListPasteKeys".equals(statement.get("Sid"))) {
                    continue;
                }
                // a takedown finds a large paste's files by listing its two folders (TemplateTest checks the prefixes)
                if (function.equals("ModerationFunction") && "ListTakenDownFiles".equals(statement.get("Sid"))) {
                    continue;
                }
                if (function.equals("SweeperFunction") && "SweepEpochMarker".equals(statement.get("Sid"))) {
                    assertEquals(Map.of("Fn::Sub", "${PasteBucket.Arn}/sweeper/epoch"), statement.get("Resource"));
                    assertEquals(List.of("s3:GetObject", "s3:PutObject"), statement.get("Action"));
                    continue;
                }
                // the paste keys, or a large paste's staged and verified files (docs/design.md, "Large files:
                // straight to S3"), never the bucket or any other prefix
                Object resource = statement.get("Resource");
                for (Object one : resource instanceof List<?> list ? list : List.of(resource)) {
                    assertTrue(OBJECT_PREFIXES.contains(one), function + ": " + one);
                }
                assertFalse(statement.get("Action").toString().contains("ListBucket"), function);
            }
            Object policies = template.properties(function).getOrDefault("Policies", List.of());
            assertFalse(
                    policies.toString().matches(".*S3(Read|Crud|Write|FullAccess)Policy.*"),
                    function + ": SAM's S3 policy templates grant more than the paste keys: " + policies);
        }
    }

    private static final List<Map<String, String>> OBJECT_PREFIXES = List.of(
            Map.of("Fn::Sub", "${PasteBucket.Arn}/pastes/*"),
            Map.of("Fn::Sub", "${PasteBucket.Arn}/staging/*"),
            Map.of("Fn::Sub", "${PasteBucket.Arn}/files/*"));

    private List<Map<String, Object>> s3Statements(String function) {
        List<Map<String, Object>> statements = new ArrayList<>();
        for (Object policy : (List<?>) template.properties(function).getOrDefault("Policies", List.of())) {
            Map<String, Object> p = CloudFormationTemplate.mapping(policy, function + " policy");
            for (Object statement : p.containsKey("Statement") ? (List<?>) p.get("Statement") : List.of()) {
                Map<String, Object> st = CloudFormationTemplate.mapping(statement, "statement");
                if (st.get("Action").toString().contains("s3:")) {
                    statements.add(st);
                }
            }
        }
        return statements;
    }

    /** The create function checks its content limit against the queue's real MaximumMessageSize. */
    @Test
    void theCreateFunctionIsToldTheUploadQueuesMaximumMessageSize() {
        assertEquals(
                template.intValue(template.properties("UploadQueue").get("MaximumMessageSize")),
                template.intValue(
                        template.environment("CreatePasteFunction").get("PASTEBIN_UPLOAD_QUEUE_MAXIMUM_MESSAGE_SIZE")));
    }

    private Map<String, Object> sqsEvent() {
        Map<String, Object> events = CloudFormationTemplate.mapping(
                template.properties("UploadPasteFunction").get("Events"), "Events");
        return CloudFormationTemplate.mapping(
                CloudFormationTemplate.mapping(events.get("UploadJobs"), "UploadJobs")
                        .get("Properties"),
                "UploadJobs.Properties");
    }
}
