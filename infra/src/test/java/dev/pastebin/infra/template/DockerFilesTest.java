package dev.pastebin.infra.template;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pastebin.local.template.CloudFormationTemplate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The files for Docker users: infra/local/docker-compose.yml starts what the scripts start, and the
 * {@code sam local} environment files (SAM's --env-vars format) give every function what it cannot resolve
 * locally. No Docker here: these are read as YAML and JSON and compared with the scripts and the template.
 */
class DockerFilesTest {

    private static final Path LOCAL = InfraTemplate.INFRA.resolve("local");
    /** Where the services are, per environment file: PostgreSQL's host, LocalStack's host. */
    private static final Map<String, List<String>> ENV_FILES = Map.of(
            "sam-local-env.json", List.of("host.docker.internal", "host.docker.internal"),
            "sam-local-env.docker-network.json", List.of("postgres", "localstack"));

    private static final Pattern LOOPBACK = Pattern.compile("(?i)\\b(localhost|127\\.0\\.0\\.1)\\b");

    private final CloudFormationTemplate template = InfraTemplate.load();

    @Test
    void composeRunsLocalStackWithTheServicesLocalstackShStarts() throws IOException {
        Map<String, Object> localstack = service("localstack");
        String services =
                String.valueOf(CloudFormationTemplate.mapping(localstack.get("environment"), "localstack.environment")
                        .get("SERVICES"));
        assertEquals(
                scriptDefault("localstack.sh", "LOCALSTACK_SERVICES"),
                services,
                "docker-compose.yml's LocalStack SERVICES must equal LOCALSTACK_SERVICES in infra/local/localstack.sh");
        assertEquals(List.of("127.0.0.1:4566:4566"), localstack.get("ports"));
        String image = String.valueOf(localstack.get("image"));
        assertEquals("localstack/localstack:" + scriptDefault("lib.sh", "LOCALSTACK_VERSION"), image);
    }

    @Test
    void composeRunsPostgresWithTheScriptsDatabaseAndCredentials() throws IOException {
        Map<String, Object> postgres = service("postgres");
        Map<String, Object> environment =
                CloudFormationTemplate.mapping(postgres.get("environment"), "postgres.environment");
        assertEquals(scriptDefault("lib.sh", "PASTEBIN_DB_USER"), environment.get("POSTGRES_USER"));
        assertEquals(scriptDefault("lib.sh", "PASTEBIN_DB_PASSWORD"), environment.get("POSTGRES_PASSWORD"));
        assertEquals(scriptDefault("lib.sh", "PASTEBIN_DB_NAME"), environment.get("POSTGRES_DB"));
        assertEquals(List.of("127.0.0.1:5432:5432"), postgres.get("ports"));
    }

    @Test
    void composeNamesTheNetworkSamLocalJoins() throws IOException {
        Map<String, Object> networks = CloudFormationTemplate.mapping(compose().get("networks"), "networks");
        assertEquals(
                "pastebin-local",
                CloudFormationTemplate.mapping(networks.get("default"), "networks.default")
                        .get("name"));
    }

    /**
     * sam local sets only the variables the template declares for a function (a name it does not declare is
     * dropped without a word), and leaves a !Ref to a resource or to a parameter without a Default empty.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sam-local-env.json", "sam-local-env.docker-network.json"})
    void theEnvironmentFileSetsOnlyDeclaredVariablesAndEveryOneSamLocalCannotResolve(String file) throws IOException {
        Map<String, Map<String, String>> env = envFile(file);
        Set<String> functions = Set.copyOf(template.resourcesOfType("AWS::Serverless::Function"));
        for (String key : env.keySet()) {
            assertTrue(
                    key.equals("Parameters") || functions.contains(key),
                    file + ": " + key + " is neither Parameters nor a function");
        }
        Set<String> declared = new TreeSet<>();
        List<String> missing = new ArrayList<>();
        for (String id : functions) {
            Map<String, String> given = new LinkedHashMap<>(env.getOrDefault("Parameters", Map.of()));
            given.putAll(env.getOrDefault(id, Map.of()));
            Map<String, Object> variables = template.environment(id);
            declared.addAll(variables.keySet());
            variables.forEach((name, value) -> {
                if (!resolvableLocally(value) && !given.containsKey(name)) {
                    missing.add(id + "." + name + " (" + value + ")");
                }
            });
            for (String name : env.getOrDefault(id, Map.of()).keySet()) {
                assertTrue(
                        variables.containsKey(name),
                        file + ": " + id + " does not declare " + name + "; sam local would drop it");
            }
        }
        assertTrue(missing.isEmpty(), file + " must set what sam local cannot resolve: " + missing);
        for (String name : env.getOrDefault("Parameters", Map.of()).keySet()) {
            assertTrue(declared.contains(name), file + ": no function declares " + name + "; sam local would drop it");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sam-local-env.json", "sam-local-env.docker-network.json"})
    void theEnvironmentFilePointsAtTheServicesAndKeepsTheTemplatesJvmOptions(String file) throws IOException {
        Map<String, String> parameters = envFile(file).get("Parameters");
        String dbHost = ENV_FILES.get(file).get(0);
        String localstackHost = ENV_FILES.get(file).get(1);
        parameters.forEach((name, value) -> assertFalse(
                LOOPBACK.matcher(value).find(),
                file + ": " + name + "=" + value + " is the function's own container, not the host"));

        String templateOptions =
                (String) template.environment("CreatePasteFunction").get("JAVA_TOOL_OPTIONS");
        String options = parameters.get("JAVA_TOOL_OPTIONS");
        assertTrue(
                options.startsWith(templateOptions + " "),
                file + ": JAVA_TOOL_OPTIONS must start with the template's: " + templateOptions);
        assertTrue(options.contains("-Daws.endpointUrl=http://" + localstackHost + ":4566 "), file + ": " + options);
        assertTrue(options.contains("-Daws.s3.path-style-access-enabled=true"), file + ": " + options);

        assertEquals(
                "jdbc:postgresql://" + dbHost + ":5432/" + scriptDefault("lib.sh", "PASTEBIN_DB_NAME"),
                parameters.get("DATASOURCES_DEFAULT_URL"));
        // the local PostgreSQL has no TLS: the template's verify-full requirement is off
        assertEquals("false", parameters.get("PASTEBIN_DATABASE_TLS_REQUIRED"), file);
        assertEquals(scriptDefault("lib.sh", "PASTEBIN_STORAGE_BUCKET"), parameters.get("PASTEBIN_STORAGE_BUCKET"));
        assertEquals(
                "http://" + localstackHost + ":4566/queue/us-east-1/000000000000/"
                        + scriptDefault("lib.sh", "PASTEBIN_UPLOAD_QUEUE"),
                parameters.get("PASTEBIN_UPLOAD_QUEUE_URL"));
        // the secret bootstrap.py creates with the local database credentials
        Matcher secret = Pattern.compile("\"PASTEBIN_DATABASE_SECRET_NAME\", \"([^\"]+)\"")
                .matcher(Files.readString(LOCAL.resolve("bootstrap.py")));
        assertTrue(secret.find(), "bootstrap.py's default PASTEBIN_DATABASE_SECRET_NAME");
        assertEquals(secret.group(1), parameters.get("PASTEBIN_DATABASE_SECRET_ID"));
        // and the one with the reporters' local HMAC key, which the report function reads at start
        Matcher key = Pattern.compile("\"PASTEBIN_REPORT_ADDRESS_KEY_SECRET\", \"([^\"]+)\"")
                .matcher(Files.readString(LOCAL.resolve("bootstrap.py")));
        assertTrue(key.find(), "bootstrap.py's default PASTEBIN_REPORT_ADDRESS_KEY_SECRET");
        assertEquals(key.group(1), scriptDefault("lib.sh", "PASTEBIN_REPORT_ADDRESS_KEY_SECRET"));
        assertEquals(key.group(1), parameters.get("PASTEBIN_REPORT_ADDRESS_KEY_SECRET_ID"));
    }

    @Test
    void theDockerNetworkFileIsTheDockerDesktopFileWithTheComposeServiceNames() throws IOException {
        Set<String> composeServices = CloudFormationTemplate.mapping(compose().get("services"), "services")
                .keySet();
        assertTrue(
                composeServices.containsAll(ENV_FILES.get("sam-local-env.docker-network.json")),
                composeServices.toString());
        String desktop = Files.readString(LOCAL.resolve("sam-local-env.json"));
        String network = Files.readString(LOCAL.resolve("sam-local-env.docker-network.json"));
        assertEquals(
                desktop.replace("host.docker.internal:5432", "postgres:5432")
                        .replace("host.docker.internal:4566", "localstack:4566"),
                network);
    }

    /** A literal, or a !Ref to a parameter with a Default: what sam local resolves by itself. */
    private boolean resolvableLocally(Object value) {
        if (!(value instanceof Map<?, ?>)) {
            return true;
        }
        return template.parameterRef(value)
                .map(parameter -> template.parameter(parameter).containsKey("Default"))
                .orElse(false);
    }

    private static Map<String, Map<String, String>> envFile(String name) throws IOException {
        JsonNode root = new ObjectMapper().readTree(LOCAL.resolve(name).toFile());
        assertTrue(root.isObject(), name + " is not a JSON object");
        Map<String, Map<String, String>> env = new LinkedHashMap<>();
        root.properties().forEach(section -> {
            assertTrue(
                    section.getValue().isObject(), name + ": " + section.getKey() + " is not an object of variables");
            Map<String, String> variables = new LinkedHashMap<>();
            section.getValue().properties().forEach(v -> {
                assertTrue(
                        v.getValue().isTextual(),
                        name + ": " + section.getKey() + "." + v.getKey() + " is not a string");
                variables.put(v.getKey(), v.getValue().asText());
            });
            env.put(section.getKey(), variables);
        });
        return env;
    }

    private static Map<String, Object> compose() throws IOException {
        Object yaml = new Yaml(new SafeConstructor(new LoaderOptions()))
                .load(Files.readString(LOCAL.resolve("docker-compose.yml")));
        return CloudFormationTemplate.mapping(yaml, "docker-compose.yml");
    }

    private static Map<String, Object> service(String name) throws IOException {
        return CloudFormationTemplate.mapping(
                CloudFormationTemplate.mapping(compose().get("services"), "services")
                        .get(name),
                "services." + name);
    }

    /** The default a script gives a variable: {@code : "${NAME:=value}"}. */
    private static String scriptDefault(String script, String variable) throws IOException {
        Matcher m = Pattern.compile(": \"\\$\\{" + variable + ":=([^}]*)}\"")
                .matcher(Files.readString(LOCAL.resolve(script)));
        assertTrue(m.find(), "no default for " + variable + " in infra/local/" + script);
        return m.group(1);
    }
}
