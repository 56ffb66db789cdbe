package dev.pastebin.benchmarks.harness;

import dev.pastebin.local.lambda.TaskRoots;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * Sizes of the built artifacts, and benchmark-only re-packagings of them for the knobs: another SDK HTTP
 * client swapped in by classpath, an extra jar (handler variants), and the shaded ("uber jar") layouts.
 * The shipped artifacts are only read.
 */
final class Artifacts {

    record Size(long zipBytes, int jars, long libBytes) {}

    private Artifacts() {}

    static Size size(Path module) throws IOException {
        Path zip = module.resolve("target/function.zip");
        Path lib = module.resolve("target/lambda/lib");
        List<Path> jars = jars(lib);
        long libBytes = 0;
        for (Path j : jars) {
            libBytes += Files.size(j);
        }
        return new Size(Files.isRegularFile(zip) ? Files.size(zip) : -1, jars.size(), libBytes);
    }

    static List<Path> jars(Path lib) throws IOException {
        if (!Files.isDirectory(lib)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(lib)) {
            return s.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
    }

    /** A copy of {@code taskRoot} whose lib/ has url-connection-client replaced by the jars in {@code clientJars}. */
    static Path withHttpClient(Path taskRoot, Path clientJars, Path out) throws IOException {
        Path lib = fresh(out).resolve("lib");
        Files.createDirectories(lib);
        for (Path j : jars(taskRoot.resolve("lib"))) {
            if (!j.getFileName().toString().startsWith("url-connection-client-")) {
                Files.copy(j, lib.resolve(j.getFileName()));
            }
        }
        for (Path j : jars(clientJars)) {
            Files.copy(j, lib.resolve(j.getFileName()), StandardCopyOption.REPLACE_EXISTING);
        }
        return out;
    }

    /** A copy of {@code taskRoot} without the lib/ jars whose names start with one of {@code prefixes}. */
    static Path without(Path taskRoot, List<String> prefixes, Path out) throws IOException {
        Path lib = fresh(out).resolve("lib");
        Files.createDirectories(lib);
        for (Path j : jars(taskRoot.resolve("lib"))) {
            String name = j.getFileName().toString();
            if (prefixes.stream().noneMatch(name::startsWith)) {
                Files.copy(j, lib.resolve(j.getFileName()));
            }
        }
        return out;
    }

    /** A copy of {@code taskRoot} with {@code extraJar} added to lib/. */
    static Path withExtraJar(Path taskRoot, Path extraJar, Path out) throws IOException {
        Path lib = fresh(out).resolve("lib");
        Files.createDirectories(lib);
        for (Path j : jars(taskRoot.resolve("lib"))) {
            Files.copy(j, lib.resolve(j.getFileName()));
        }
        Files.copy(extraJar, lib.resolve("zz-" + extraJar.getFileName()));
        return out;
    }

    /** A jar of the files under {@code classes} (e.g. Micronaut AOT's generated classes), written to {@code jar}. */
    static Path jarOf(Path classes, Path jar) throws IOException {
        Files.createDirectories(jar.getParent());
        try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar));
                var files = Files.walk(classes)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new java.util.jar.JarEntry(
                        classes.relativize(f).toString().replace('\\', '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
        return jar;
    }

    /**
     * The layout Lambda makes of a shaded-jar deployment: the one jar is unzipped into the task root, so
     * classes are loose files. Jars are merged in the order the runtime's class loader would search
     * them (first wins), META-INF/services files are concatenated, signatures dropped.
     */
    static Path explodedShaded(Path taskRoot, Path out) throws IOException {
        Path root = fresh(out);
        Map<String, byte[]> merged = merge(jars(taskRoot.resolve("lib")));
        for (Map.Entry<String, byte[]> e : merged.entrySet()) {
            Path target = root.resolve(e.getKey());
            Files.createDirectories(target.getParent());
            Files.write(target, e.getValue());
        }
        return root;
    }

    /** All of lib/ merged into one (multi-release) jar, lib/app.jar: the "one jar" variant of the shaded layout. */
    static Path singleJar(Path taskRoot, Path out) throws IOException {
        Path lib = fresh(out).resolve("lib");
        Files.createDirectories(lib);
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().put(Attributes.Name.MULTI_RELEASE, "true");
        Map<String, byte[]> merged = merge(jars(taskRoot.resolve("lib")));
        try (OutputStream fos = Files.newOutputStream(lib.resolve("app.jar"));
                JarOutputStream jar = new JarOutputStream(fos, mf)) {
            java.util.Set<String> dirs = new java.util.HashSet<>();
            for (Map.Entry<String, byte[]> e : merged.entrySet()) {
                String name = e.getKey();
                for (int i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
                    String dir = name.substring(0, i + 1);
                    if (dirs.add(dir)) {
                        jar.putNextEntry(new JarEntry(dir));
                        jar.closeEntry();
                    }
                }
                jar.putNextEntry(new JarEntry(name));
                jar.write(e.getValue());
                jar.closeEntry();
            }
        }
        return out;
    }

    private static Map<String, byte[]> merge(List<Path> jars) throws IOException {
        Map<String, byte[]> merged = new LinkedHashMap<>();
        for (Path j : jars) {
            try (InputStream in = Files.newInputStream(j);
                    ZipInputStream zip = new ZipInputStream(in)) {
                ZipEntry e;
                while ((e = zip.getNextEntry()) != null) {
                    String name = e.getName();
                    if (e.isDirectory() || skip(name)) {
                        continue;
                    }
                    byte[] bytes = zip.readAllBytes();
                    if (name.startsWith("META-INF/services/") && merged.containsKey(name)) {
                        ByteArrayOutputStream cat = new ByteArrayOutputStream();
                        cat.write(merged.get(name));
                        cat.write('\n');
                        cat.write(bytes);
                        merged.put(name, cat.toByteArray());
                    } else {
                        merged.putIfAbsent(name, bytes);
                    }
                }
            }
        }
        return merged;
    }

    private static boolean skip(String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        return upper.equals("META-INF/MANIFEST.MF")
                || upper.endsWith(".SF")
                || upper.endsWith(".RSA")
                || upper.endsWith(".DSA")
                || upper.endsWith(".EC")
                || name.endsWith("module-info.class")
                || name.equals("META-INF/INDEX.LIST");
    }

    private static Path fresh(Path dir) throws IOException {
        TaskRoots.deleteTree(dir);
        Files.createDirectories(dir);
        return dir;
    }
}
