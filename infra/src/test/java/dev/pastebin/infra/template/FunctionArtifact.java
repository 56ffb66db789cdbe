package dev.pastebin.infra.template;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipInputStream;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * A function's deployment artifact as Lambda sees it: its module's target/function.zip, unpacked, with every
 * jar under lib/ on one class path. Reads classes and the function's application.yml from there, never
 * from this test's own class path.
 */
final class FunctionArtifact implements AutoCloseable {

    private static final Pattern PROJECT_CLASS = Pattern.compile("dev/pastebin/[A-Za-z0-9_/$]+");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([a-zA-Z0-9_.\\-]+)(:[^}]*)?}");

    final String logicalId;
    final Path zip;
    private final List<Path> jars = new ArrayList<>();
    private final Map<String, byte[]> projectClasses = new HashMap<>();
    private final Map<String, String> classJar = new HashMap<>();
    private URLClassLoader loader;

    private FunctionArtifact(String logicalId, Path zip) {
        this.logicalId = logicalId;
        this.zip = zip;
    }

    /** Unpacks {@code zip} under target/template-artifacts; fails with the fix when it was not built. */
    static FunctionArtifact open(String logicalId, Path zip) {
        if (!Files.isRegularFile(zip)) {
            throw new AssertionError(
                    logicalId + ": " + zip + " does not exist. Build the function artifacts "
                            + "first (mvn -B package at the repository root); the template's CodeUri must name the module that builds it.");
        }
        FunctionArtifact artifact = new FunctionArtifact(logicalId, zip);
        artifact.unpack(Path.of("target", "template-artifacts", logicalId));
        return artifact;
    }

    private void unpack(Path dir) {
        try (ZipFile archive = new ZipFile(zip.toFile())) {
            Files.createDirectories(dir);
            for (ZipEntry entry : archive.stream().toList()) {
                if (entry.isDirectory() || !entry.getName().endsWith(".jar")) {
                    continue;
                }
                Path jar = dir.resolve(Path.of(entry.getName()).getFileName().toString());
                try (InputStream in = archive.getInputStream(entry)) {
                    Files.copy(in, jar, StandardCopyOption.REPLACE_EXISTING);
                }
                if (!entry.getName().startsWith("lib/")) {
                    throw new AssertionError(
                            logicalId + ": " + entry.getName() + " is not under lib/, where the Java runtime looks");
                }
                jars.add(jar);
                indexProjectClasses(jar);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack " + zip, e);
        }
    }

    private void indexProjectClasses(Path jar) throws IOException {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(jar))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                String name = entry.getName();
                if (name.startsWith("dev/pastebin/") && name.endsWith(".class")) {
                    String className = name.substring(0, name.length() - ".class".length());
                    projectClasses.put(className, in.readAllBytes());
                    classJar.put(className, jar.getFileName().toString());
                }
            }
        }
    }

    ClassLoader classLoader() {
        if (loader == null) {
            URL[] urls = jars.stream().map(FunctionArtifact::url).toArray(URL[]::new);
            // Parent: the platform loader only, so nothing of this test's class path leaks in.
            loader = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
        }
        return loader;
    }

    /** Loads {@code className} from the artifact without initialising it. */
    Optional<Class<?>> findClass(String className) {
        try {
            return Optional.of(Class.forName(className, false, classLoader()));
        } catch (ClassNotFoundException | LinkageError e) {
            // absent, or needs classes this artifact does not carry (so it cannot be a bean here either)
            return Optional.empty();
        }
    }

    /** The jar of the function's own module: the one that holds its handler (or, for HTTP functions, its controllers). */
    Path moduleJar(String moduleArtifactId) {
        return jars.stream()
                .filter(j -> j.getFileName().toString().startsWith(moduleArtifactId + "-"))
                .findFirst()
                .orElseThrow(() -> new AssertionError(logicalId + ": no " + moduleArtifactId + "-*.jar in " + zip));
    }

    /** The function's application.yml (from its own module jar), flattened to dotted keys. */
    Map<String, String> applicationYml(String moduleArtifactId) {
        try (ZipFile jar = new ZipFile(moduleJar(moduleArtifactId).toFile())) {
            ZipEntry entry = jar.getEntry("application.yml");
            if (entry == null) {
                return Map.of();
            }
            try (InputStream in = jar.getInputStream(entry)) {
                Object yaml = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
                Map<String, String> flat = new LinkedHashMap<>();
                flatten("", yaml, flat);
                return flat;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The project classes the function's own code can reach: its module's classes, then every dev.pastebin
     * class their constant pools name, transitively (so a core service's configuration counts when the
     * function uses that service, and core's configuration it never touches does not).
     */
    Set<String> reachableProjectClasses(String moduleArtifactId) {
        String moduleJar = moduleJar(moduleArtifactId).getFileName().toString();
        return closure(classJar.entrySet().stream()
                .filter(e -> e.getValue().equals(moduleJar))
                .map(Map.Entry::getKey)
                .toList());
    }

    /**
     * What {@link #reachableProjectClasses} finds plus every bean the artifact declares and what those name:
     * Lambda contexts create singletons eagerly, so a core bean (e.g. a listener) runs in every function
     * whose artifact holds it, whether or not the function's code refers to it.
     */
    Set<String> reachableProjectClassesAndBeans(String moduleArtifactId) {
        List<String> roots = new ArrayList<>(reachableProjectClasses(moduleArtifactId));
        projectClasses.keySet().stream()
                .filter(cls -> projectClasses.containsKey(definitionOf(cls)))
                .forEach(roots::add);
        return closure(roots);
    }

    private Set<String> closure(List<String> roots) {
        Deque<String> queue = new ArrayDeque<>(roots);
        Set<String> reached = new LinkedHashSet<>();
        while (!queue.isEmpty()) {
            String cls = queue.poll();
            if (!reached.add(cls)) {
                continue;
            }
            byte[] bytes = projectClasses.get(cls);
            if (bytes == null) {
                continue;
            }
            Matcher m = PROJECT_CLASS.matcher(new String(bytes, StandardCharsets.ISO_8859_1));
            while (m.find()) {
                String referenced = m.group();
                if (projectClasses.containsKey(referenced) && !reached.contains(referenced)) {
                    queue.add(referenced);
                }
                // Micronaut's generated bean definition of a reached class carries its injection points.
                String definition = definitionOf(referenced);
                if (projectClasses.containsKey(definition) && !reached.contains(definition)) {
                    queue.add(definition);
                }
            }
        }
        return reached;
    }

    /** {@code ${name}} placeholders without a default in the constant pools of {@code classes} (e.g. {@code @Value}). */
    Set<String> placeholdersWithoutDefault(Set<String> classes) {
        Set<String> names = new LinkedHashSet<>();
        for (String cls : classes) {
            byte[] bytes = projectClasses.get(cls);
            if (bytes == null) {
                continue;
            }
            Matcher m = PLACEHOLDER.matcher(new String(bytes, StandardCharsets.ISO_8859_1));
            while (m.find()) {
                if (m.group(2) == null) {
                    names.add(m.group(1));
                }
            }
        }
        return names;
    }

    private static String definitionOf(String cls) {
        int slash = cls.lastIndexOf('/');
        return cls.substring(0, slash + 1) + "$" + cls.substring(slash + 1) + "$Definition";
    }

    @SuppressWarnings("unchecked")
    private static void flatten(String prefix, Object value, Map<String, String> out) {
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> flatten(prefix.isEmpty() ? String.valueOf(k) : prefix + "." + k, v, out));
        } else if (value != null) {
            out.put(prefix, String.valueOf(value));
        }
    }

    private static URL url(Path path) {
        try {
            return path.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() throws IOException {
        if (loader != null) {
            loader.close();
        }
    }
}
