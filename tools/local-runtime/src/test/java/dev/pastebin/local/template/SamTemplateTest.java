package dev.pastebin.local.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SamTemplateTest {

    private static final Path FIXTURE =
            Path.of("src/test/resources/fixture/sam-app-template.yaml").toAbsolutePath();

    private final SamTemplate template = SamTemplate.read(FIXTURE);

    @Test
    void readsEveryServerlessFunctionAndNothingElse() {
        assertEquals(
                List.of("CreatePasteFunction", "ReadPasteFunction", "UploadPasteFunction", "SweeperFunction"),
                template.functions().stream().map(FunctionDefinition::logicalId).toList());
    }

    @Test
    void appliesGlobalsAndLambdaDefaultsAndResolvesParameterDefaults() {
        FunctionDefinition create = template.function("CreatePasteFunction");
        assertEquals("io.micronaut.function.aws.proxy.payload2.APIGatewayV2HTTPEventFunction", create.handler());
        assertEquals("java21", create.runtime());
        assertEquals(1024, create.memorySizeMb());
        assertEquals(Duration.ofSeconds(15), create.timeout());
        assertEquals(512, template.function("ReadPasteFunction").memorySizeMb());
        assertEquals(
                Duration.ofSeconds(30), template.function("UploadPasteFunction").timeout());
        assertEquals(
                FIXTURE.getParent()
                        .resolve("../create-function/target/function.zip")
                        .normalize(),
                create.codeUri());
    }

    @Test
    void mergesTheEnvironmentWithGlobalsAndResolvesParameterValuesOnly() {
        FunctionDefinition upload = template.function("UploadPasteFunction");
        assertEquals(
                "-XX:+TieredCompilation -XX:TieredStopAtLevel=1",
                upload.environment().get("JAVA_TOOL_OPTIONS"));
        assertEquals(6, ((Number) upload.environment().get("PASTEBIN_UPLOAD_MAX_ATTEMPTS")).intValue());
        assertEquals(Map.of("Ref", "UploadQueue"), upload.environment().get("PASTEBIN_UPLOAD_QUEUE_URL"));
        assertEquals(
                8,
                ((Number) SamTemplate.read(FIXTURE, Map.of("UploadMaxAttempts", "8"))
                                .function("UploadPasteFunction")
                                .environment()
                                .get("PASTEBIN_UPLOAD_MAX_ATTEMPTS"))
                        .intValue(),
                "an override wins over the Default");
    }

    @Test
    void readsHttpApiRoutes() {
        assertEquals(
                List.of(new FunctionDefinition.HttpRoute("CreatePaste", "POST", "/pastes")),
                template.function("CreatePasteFunction").httpRoutes());
        assertEquals(
                List.of("GET /pastes/{shortCode}", "HEAD /pastes/{shortCode}"),
                template.function("ReadPasteFunction").httpRoutes().stream()
                        .map(FunctionDefinition.HttpRoute::routeKey)
                        .toList());
    }

    @Test
    void readsTheSqsEventSourceMapping() {
        FunctionDefinition.SqsTrigger sqs =
                template.function("UploadPasteFunction").sqsTriggers().getFirst();
        assertEquals(10, sqs.batchSize());
        assertEquals(Duration.ofSeconds(2), sqs.maximumBatchingWindow());
        assertTrue(sqs.reportBatchItemFailures());
        assertTrue(sqs.enabled());
        assertEquals(5, sqs.maximumConcurrency(), "without ScalingConfig: Lambda's first five batches");
        assertEquals(Map.of("Fn::GetAtt", List.of("UploadQueue", "Arn")), sqs.queue());
    }

    @Test
    void readsTheSchedule() {
        FunctionDefinition.ScheduleTrigger schedule =
                template.function("SweeperFunction").scheduleTriggers().getFirst();
        assertEquals("DailySweep", schedule.eventName());
        assertEquals(Optional.of(Duration.ofDays(1)), schedule.rate());
        assertTrue(schedule.enabled());
    }

    @Test
    void rateExpressions() {
        assertEquals(Optional.of(Duration.ofMinutes(1)), SamTemplate.rate("rate(1 minute)"));
        assertEquals(Optional.of(Duration.ofHours(12)), SamTemplate.rate("rate(12 hours)"));
        assertFalse(SamTemplate.rate("cron(0 3 * * ? *)").isPresent());
    }

    @Test
    void readsTheBuildMethod() {
        assertEquals(null, template.function("CreatePasteFunction").buildMethod());
    }

    @Test
    void anUnknownFunctionIsAClearError() {
        var e = assertThrows(IllegalArgumentException.class, () -> template.function("Nope"));
        assertTrue(e.getMessage().contains("CreatePasteFunction"), e.getMessage());
    }

    @Test
    void shortFormTagsBecomeTheirLongForm() {
        Object yaml =
                CloudFormationYaml.load("a: !Ref X\nb: !GetAtt Q.Arn\nc: !Sub '${A}-b'\nd: !Join ['', [x, !Ref Y]]\n");
        assertEquals(
                Map.of(
                        "a",
                        Map.of("Ref", "X"),
                        "b",
                        Map.of("Fn::GetAtt", List.of("Q", "Arn")),
                        "c",
                        Map.of("Fn::Sub", "${A}-b"),
                        "d",
                        Map.of("Fn::Join", List.of("", List.of("x", Map.of("Ref", "Y"))))),
                yaml);
    }

    @Test
    void aMissingTemplateIsAClearError() {
        var e = assertThrows(IllegalArgumentException.class, () -> SamTemplate.read(Path.of("no/such/template.yaml")));
        assertTrue(e.getMessage().contains("no/such/template.yaml"), e.getMessage());
    }
}
