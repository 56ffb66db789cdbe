package dev.pastebin.infra.template;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.pastebin.local.template.CloudFormationTemplate;
import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Checks every function of the template against its artifact: the zip {@code mvn package} builds in its
 * CodeUri module (target/function.zip, before this runs in {@code verify}), which is what the module's
 * Makefile unpacks for {@code sam build}: the handler class is in it, and every setting the function reads
 * whose local value cannot be right on AWS is set in its environment. (infra/local/sam-build.sh checks the
 * handlers again in what {@code sam build} itself produces.)
 */
class FunctionArtifactsIT {

    /**
     * Settings whose local defaults look harmless but must differ per deployment, so the template has to set
     * them whenever a function reads them.
     */
    static final Map<String, String> DEPLOYMENT_SPECIFIC = Map.of(
            // S3 bucket names are global: the local name is never the deployed stack's bucket
            "pastebin.storage.bucket", "the stack's bucket",
            // the function's attempt budget and the queue's redrive must come from the same parameters
            "pastebin.delivery.max-attempts", "the UploadMaxAttempts parameter",
            "pastebin.delivery.queue.max-receive-count", "the RedrivePolicy's parameter");

    /** Variables the template sets for the runtime or the SDK, not for the function's configuration. */
    static final Set<String> NOT_CONFIGURATION = Set.of("JAVA_TOOL_OPTIONS");

    private static final Pattern LOCAL_VALUE = Pattern.compile("(?i)(localhost|127\\.0\\.0\\.1)");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([a-zA-Z0-9_.\\-]+)(:[^}]*)?}");
    private static final String CONFIGURATION_PROPERTIES = "io.micronaut.context.annotation.ConfigurationProperties";

    private final CloudFormationTemplate template = InfraTemplate.load();

    @TestFactory
    Stream<DynamicTest> everyHandlerIsAClassInTheFunctionsArtifact() {
        return functions()
                .map(id -> DynamicTest.dynamicTest(id, () -> {
                    try (FunctionArtifact artifact = FunctionArtifact.open(id, artifactZip(id))) {
                        String handler = (String) template.properties(id).get("Handler");
                        String className =
                                handler.contains("::") ? handler.substring(0, handler.indexOf("::")) : handler;
                        Class<?> cls = artifact.findClass(className)
                                .orElseThrow(() -> new AssertionError(
                                        id + ": handler class " + className + " is not in " + artifact.zip));
                        assertTrue(
                                Modifier.isPublic(cls.getModifiers()) && !Modifier.isAbstract(cls.getModifiers()),
                                id + ": " + cls);
                        // Lambda instantiates it with the public no-arg constructor (getConstructor throws without
                        // one).
                        assertNotNull(cls.getConstructor(), id + ": " + cls + " has no public no-arg constructor");
                        if (handler.contains("::")) {
                            String method = handler.substring(handler.indexOf("::") + 2);
                            assertTrue(
                                    Arrays.stream(cls.getMethods())
                                            .anyMatch(m -> m.getName().equals(method)
                                                    && (m.getParameterCount() == 2 || m.getParameterCount() == 3)),
                                    id + ": " + className + " has no public " + method + "(input, Context)");
                        } else {
                            Class<?> requestHandler = artifact.findClass(
                                            "com.amazonaws.services.lambda.runtime.RequestHandler")
                                    .orElseThrow();
                            Class<?> streamHandler = artifact.findClass(
                                            "com.amazonaws.services.lambda.runtime.RequestStreamHandler")
                                    .orElseThrow();
                            assertTrue(
                                    requestHandler.isAssignableFrom(cls) || streamHandler.isAssignableFrom(cls),
                                    id + ": " + className + " is neither a RequestHandler nor a RequestStreamHandler");
                        }
                    }
                }));
    }

    /**
     * The repository's RDS CA bundle travels in every artifact where core's DatabaseTlsProperties looks for it
     * (/var/task/tls/database-ca-bundle.pem), so DatabaseTrustAnchor=ca-bundle works with nothing downloaded.
     */
    @TestFactory
    Stream<DynamicTest> everyArtifactCarriesTheRepositorysCaBundle() {
        return functions()
                .map(id -> DynamicTest.dynamicTest(id, () -> {
                    byte[] bundle = Files.readAllBytes(InfraTemplate.INFRA.resolve("tls/database-ca-bundle.pem"));
                    try (ZipFile zip = new ZipFile(artifactZip(id).toFile())) {
                        ZipEntry packed = zip.getEntry("tls/database-ca-bundle.pem");
                        assertNotNull(packed, id + ": " + artifactZip(id) + " has no tls/database-ca-bundle.pem");
                        try (InputStream in = zip.getInputStream(packed)) {
                            assertArrayEquals(
                                    bundle, in.readAllBytes(), id + ": the packed bundle is the repository's");
                        }
                    }
                }));
    }

    @TestFactory
    Stream<DynamicTest> everySettingAFunctionReadsThatCannotStayLocalIsSetInItsEnvironment() {
        return functions()
                .map(id -> DynamicTest.dynamicTest(id, () -> {
                    String module = moduleArtifactId(id);
                    try (FunctionArtifact artifact = FunctionArtifact.open(id, artifactZip(id))) {
                        Map<String, String> required = requiredSettings(artifact, module);
                        if (id.equals("DatabaseMigrationFunction") || InfraTemplate.outsideTheVpc(template, id)) {
                            // the migration function connects with the secrets the DatabaseSchema resource names,
                            // never through the datasource's pool; a function outside the VPC (the moderation
                            // outbox) has no database at all: neither has a secret of its own (core's bean for it
                            // stays off without pastebin.database.secret-id)
                            required.remove("pastebin.database.secret-id");
                        }
                        Set<String> environment = template.environment(id).keySet();
                        List<String> missing = new ArrayList<>();
                        required.forEach((property, reason) -> {
                            if (!environment.contains(envName(property))) {
                                missing.add(envName(property) + " (" + property + ": " + reason + ")");
                            }
                        });
                        assertTrue(missing.isEmpty(), id + " reads settings the template does not set: " + missing);
                        // outside the VPC (EdgeAclFunction) a function cannot reach the database, nor does it need to
                        if (!InfraTemplate.outsideTheVpc(template, id)) {
                            assertTrue(
                                    required.containsKey("datasources.default.url"),
                                    id + ": every function in the VPC uses the database");
                        }
                    }
                }));
    }

    @TestFactory
    Stream<DynamicTest> everyVariableAFunctionSetsBindsToASettingItReads() {
        return functions()
                .map(id -> DynamicTest.dynamicTest(id, () -> {
                    String module = moduleArtifactId(id);
                    try (FunctionArtifact artifact = FunctionArtifact.open(id, artifactZip(id))) {
                        Set<String> known = new java.util.HashSet<>();
                        knownSettings(artifact, module).forEach(p -> known.add(envName(p)));
                        // only the function's own variables: the Globals ones are shared by design
                        Object ownEnvironment = template.properties(id).get("Environment");
                        Set<String> ownNames = ownEnvironment == null
                                ? Set.of()
                                : CloudFormationTemplate.mapping(
                                                CloudFormationTemplate.mapping(ownEnvironment, "Environment")
                                                        .get("Variables"),
                                                "Variables")
                                        .keySet();
                        for (String name : ownNames) {
                            if (!NOT_CONFIGURATION.contains(name)) {
                                assertTrue(
                                        known.contains(name),
                                        id + " sets " + name + " but reads no such setting (known: " + known + ")");
                            }
                        }
                    }
                }));
    }

    /** Every setting the function reads whose local value cannot be right on AWS, with the reason. */
    private Map<String, String> requiredSettings(FunctionArtifact artifact, String module) throws Exception {
        Map<String, String> required = new LinkedHashMap<>();
        Map<String, String> yml = artifact.applicationYml(module);
        yml.forEach((key, value) -> {
            if (LOCAL_VALUE.matcher(value).find()) {
                required.put(key, "application.yml points at a local endpoint: " + value);
            }
            Matcher m = PLACEHOLDER.matcher(value);
            while (m.find()) {
                if (m.group(2) == null) {
                    required.put(m.group(1), "application.yml placeholder without a default");
                }
            }
        });
        Set<String> reached = artifact.reachableProjectClasses(module);
        for (String placeholder :
                artifact.placeholdersWithoutDefault(artifact.reachableProjectClassesAndBeans(module))) {
            required.put(placeholder, "read by the code with no default");
        }
        for (Map.Entry<String, Optional<String>> setting :
                configurationProperties(artifact, reached).entrySet()) {
            String property = setting.getKey();
            String local = yml.containsKey(property)
                    ? yml.get(property)
                    : setting.getValue().orElse(null);
            if (DEPLOYMENT_SPECIFIC.containsKey(property)) {
                required.put(property, "deployment-specific: " + DEPLOYMENT_SPECIFIC.get(property));
            } else if (local != null && LOCAL_VALUE.matcher(local).find()) {
                required.put(property, "its default points at a local endpoint: " + local);
            }
        }
        if (yml.keySet().stream().anyMatch(k -> k.startsWith("datasources.default."))) {
            // the configured username/password are the local ones: on AWS they must come from the secret
            assertTrue(
                    required.containsKey("pastebin.database.secret-id"),
                    artifact.logicalId
                            + " has a datasource but cannot read its credentials from Secrets Manager (pastebin.database.secret-id)");
        }
        return required;
    }

    /** Every setting the function can read: application.yml keys, its configuration records, placeholders. */
    private Set<String> knownSettings(FunctionArtifact artifact, String module) throws Exception {
        Set<String> known =
                new java.util.HashSet<>(artifact.applicationYml(module).keySet());
        // beans count too: a filter or listener reads its settings without the function's code naming it
        // (core's EdgeOriginFilter and its EdgeProperties)
        Set<String> reached = artifact.reachableProjectClassesAndBeans(module);
        known.addAll(artifact.placeholdersWithoutDefault(reached));
        known.addAll(configurationProperties(artifact, reached).keySet());
        return known;
    }

    /** property -> its {@code @Bindable} default, for every component of a reached {@code @ConfigurationProperties} record. */
    private static Map<String, Optional<String>> configurationProperties(FunctionArtifact artifact, Set<String> reached)
            throws Exception {
        Map<String, Optional<String>> properties = new LinkedHashMap<>();
        for (String internalName : reached) {
            Optional<Class<?>> cls = artifact.findClass(internalName.replace('/', '.'));
            if (cls.isEmpty() || !cls.get().isRecord()) {
                continue;
            }
            Optional<Annotation> config = annotation(cls.get().getAnnotations(), CONFIGURATION_PROPERTIES);
            if (config.isEmpty()) {
                continue;
            }
            String prefix = (String) value(config.get(), "value");
            for (RecordComponent component : cls.get().getRecordComponents()) {
                // @Bindable lands on the component, its field or its accessor, depending on its @Target
                Annotation[] annotations = Stream.of(
                                component.getAnnotations(),
                                component.getAccessor().getAnnotations(),
                                cls.get().getDeclaredField(component.getName()).getAnnotations())
                        .flatMap(Arrays::stream)
                        .toArray(Annotation[]::new);
                Optional<String> defaultValue = annotation(annotations, "io.micronaut.core.bind.annotation.Bindable")
                        .map(a -> (String) value(a, "defaultValue"))
                        .filter(v -> !v.isEmpty());
                properties.put(prefix + "." + kebab(component.getName()), defaultValue);
            }
        }
        return properties;
    }

    private Stream<String> functions() {
        return template.resourcesOfType("AWS::Serverless::Function").stream();
    }

    /** The function's module directory: its CodeUri (BuildMethod makefile). */
    private Path codeUri(String id) {
        return InfraTemplate.INFRA
                .resolve((String) template.properties(id).get("CodeUri"))
                .normalize();
    }

    /** The zip the module's Makefile unpacks into the function's build directory (infra/lambda-build.mk). */
    private Path artifactZip(String id) {
        return codeUri(id).resolve("target").resolve("function.zip");
    }

    /** The artifactId of the module the CodeUri names. */
    private String moduleArtifactId(String id) throws IOException {
        Path moduleDir = codeUri(id);
        String pom = Files.readString(moduleDir.resolve("pom.xml"));
        Matcher m =
                Pattern.compile("</parent>\\s*<artifactId>([^<]+)</artifactId>").matcher(pom);
        if (!m.find()) {
            fail(id + ": no artifactId after <parent> in " + moduleDir.resolve("pom.xml"));
        }
        return m.group(1);
    }

    static String envName(String property) {
        return property.replace('.', '_').replace('-', '_').toUpperCase(Locale.ROOT);
    }

    private static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    private static Optional<Annotation> annotation(Annotation[] annotations, String type) {
        return Arrays.stream(annotations)
                .filter(a -> a.annotationType().getName().equals(type))
                .findFirst();
    }

    private static Object value(Annotation annotation, String member) {
        try {
            Method method = annotation.annotationType().getMethod(member);
            return method.invoke(annotation);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
