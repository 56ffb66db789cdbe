package dev.pastebin.infra.template;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.job.MalformedUploadJobException;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.local.template.CloudFormationTemplate;
import io.micronaut.serde.ObjectMapper;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/** The sample events in infra/events fit the template's routes and the upload-job contract. */
class SampleEventsTest {

    private static final Path EVENTS = InfraTemplate.INFRA.resolve("events");
    private final CloudFormationTemplate template = InfraTemplate.load();
    private final UploadJobCodec codec = new UploadJobCodec(ObjectMapper.getDefault());

    @Test
    void everyHttpEventTargetsARouteOfTheTemplateWithItsPathParameters() throws IOException {
        Set<String> routes = template.resourcesOfType("AWS::Serverless::Function").stream()
                .flatMap(f -> {
                    Object events = template.properties(f).get("Events");
                    return events == null
                            ? Stream.empty()
                            : CloudFormationTemplate.mapping(events, "Events").values().stream();
                })
                .map(e -> CloudFormationTemplate.mapping(e, "event"))
                .filter(e -> "HttpApi".equals(e.get("Type")))
                .map(e -> CloudFormationTemplate.mapping(e.get("Properties"), "properties"))
                .map(p -> p.get("Method") + " " + p.get("Path"))
                .collect(Collectors.toSet());
        for (String file :
                List.of("create-paste-text.json", "create-paste-json.json", "read-paste.json", "head-paste.json")) {
            Map<String, Object> event = read(file);
            Map<String, Object> context = CloudFormationTemplate.mapping(event.get("requestContext"), "requestContext");
            Map<String, Object> http = CloudFormationTemplate.mapping(context.get("http"), "http");
            assertEquals("2.0", event.get("version"), file);
            assertTrue(
                    routes.contains(event.get("routeKey")), file + ": " + event.get("routeKey") + " not in " + routes);
            assertEquals(event.get("routeKey"), context.get("routeKey"), file);
            assertEquals(
                    http.get("method") + " ",
                    ((String) event.get("routeKey")).substring(0, ((String) event.get("routeKey")).indexOf(' ') + 1));
            assertEquals(event.get("rawPath"), http.get("path"), file);
            if (event.get("routeKey").toString().contains("{shortCode}")) {
                String code = (String) CloudFormationTemplate.mapping(event.get("pathParameters"), "pathParameters")
                        .get("shortCode");
                assertEquals("/pastes/" + code, event.get("rawPath"), file);
            }
            if (event.containsKey("body")) {
                Map<String, Object> headers = CloudFormationTemplate.mapping(event.get("headers"), "headers");
                assertEquals(
                        String.valueOf(((String) event.get("body")).getBytes(StandardCharsets.UTF_8).length),
                        headers.get("content-length"),
                        file);
                assertEquals(false, event.get("isBase64Encoded"), file);
            }
        }
    }

    @Test
    void theUploadJobEventCarriesAValidJobWithItsHashAndTheSqsChecksums() throws Exception {
        Map<String, Object> record = onlyRecord("upload-job.json");
        UploadJob job = codec.decode((String) record.get("body"));
        assertEquals(ContentHash.sha256Hex(job.content()), job.contentSha256());
        assertEquals(md5((String) record.get("body")), record.get("md5OfBody"));
        assertEquals("aws:sqs", record.get("eventSource"));
        Map<String, Object> attributes = CloudFormationTemplate.mapping(record.get("attributes"), "attributes");
        assertTrue(Integer.parseInt((String) attributes.get("ApproximateReceiveCount")) >= 1);
        // the job is for the paste the read events ask for
        String code =
                (String) CloudFormationTemplate.mapping(read("read-paste.json").get("pathParameters"), "pathParameters")
                        .get("shortCode");
        assertEquals(code, job.shortCode());
        // the same content the text create event posts
        assertArrayEquals(
                ((String) read("create-paste-text.json").get("body")).getBytes(StandardCharsets.UTF_8), job.content());
    }

    @Test
    void thePoisonEventIsNotAnUploadJob() throws Exception {
        Map<String, Object> record = onlyRecord("upload-poison.json");
        assertThrows(MalformedUploadJobException.class, () -> codec.decode((String) record.get("body")));
        assertEquals(md5((String) record.get("body")), record.get("md5OfBody"));
    }

    @Test
    void theMixedBatchHoldsTheValidJobAndThePoisonOne() throws IOException {
        List<?> records = (List<?>) read("upload-batch.json").get("Records");
        assertEquals(List.of(onlyRecord("upload-job.json"), onlyRecord("upload-poison.json")), records);
    }

    @Test
    void theScheduledEventIsWhatEventBridgeSendsForARule() throws IOException {
        Map<String, Object> event = read("sweeper-scheduled.json");
        assertEquals("Scheduled Event", event.get("detail-type"));
        assertEquals("aws.events", event.get("source"));
        assertFalse(((List<?>) event.get("resources")).isEmpty());
    }

    private Map<String, Object> onlyRecord(String file) throws IOException {
        List<?> records = (List<?>) read(file).get("Records");
        assertEquals(1, records.size(), file);
        return CloudFormationTemplate.mapping(records.getFirst(), "record");
    }

    private static Map<String, Object> read(String file) throws IOException {
        // JSON is YAML: SnakeYAML reads the events without another JSON library
        try (Reader reader = Files.newBufferedReader(EVENTS.resolve(file), StandardCharsets.UTF_8)) {
            return CloudFormationTemplate.mapping(
                    new Yaml(new SafeConstructor(new LoaderOptions())).load(reader), file);
        }
    }

    private static String md5(String body) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(body.getBytes(StandardCharsets.UTF_8)));
    }
}
