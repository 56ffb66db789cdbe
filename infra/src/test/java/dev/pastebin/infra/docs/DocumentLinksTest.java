package dev.pastebin.infra.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of every Markdown file in the repository resolves: the file (or directory) it names exists,
 * and its {@code #anchor}, in a Markdown file, is one of that file's headings as GitHub makes anchors of them.
 * Links inside code (fenced blocks, code spans) are not links; web addresses are not checked.
 */
class DocumentLinksTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** Build output, tool caches and version control: nothing there is a document of the repository. */
    private static final Set<String> NOT_DOCUMENTS = Set.of("target", "node_modules", ".git", ".tools", ".idea");

    private static final Pattern INLINE_LINK = Pattern.compile("\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE_DEFINITION = Pattern.compile("^ {0,3}\\[[^\\]]+\\]:\\s*(\\S+)");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");

    @Test
    void everyRelativeLinkOfEveryMarkdownFileResolves() throws IOException {
        List<Path> documents = markdownFiles();
        assertTrue(
                documents.contains(ROOT.resolve("README.md")) && documents.contains(ROOT.resolve("docs/design.md")),
                "found the repository's Markdown files: " + documents.size());
        List<String> broken = new ArrayList<>();
        for (Path document : documents) {
            List<String> lines = Files.readAllLines(document);
            boolean fenced = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.strip().startsWith("```") || line.strip().startsWith("~~~")) {
                    fenced = !fenced;
                    continue;
                }
                if (fenced) {
                    continue;
                }
                for (String target : targets(line)) {
                    String problem = problem(document, target);
                    if (problem != null) {
                        broken.add(
                                ROOT.relativize(document) + " line " + (i + 1) + ": " + target + " (" + problem + ")");
                    }
                }
            }
        }
        assertEquals(List.of(), broken, "links that lead nowhere");
    }

    /** GitHub's anchors: the heading's text lower-cased, punctuation dropped, spaces as hyphens, repeats numbered. */
    @Test
    void anchorsAreMadeAsGitHubMakesThem() {
        assertEquals(
                List.of(
                        "deploy-with-sam",
                        "rotating-the-edges-origin-secret",
                        "what-make-test-runs",
                        "layout",
                        "layout-1"),
                anchors(List.of(
                        "## Deploy with SAM",
                        "## Rotating the edge's origin secret",
                        "## What `make test` runs",
                        "# Layout",
                        "### Layout")));
        assertEquals(
                List.of("the-run-of-record-2026-11-23-afternoon-quiet-machine", "java-25-runtime-java-21-bytecode"),
                anchors(List.of(
                        "## The run of record (2026-11-23 afternoon, quiet machine)",
                        "## Java 25 runtime, Java 21 bytecode")));
    }

    private static List<Path> markdownFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(ROOT)) {
            walk.filter(path -> path.toString().endsWith(".md"))
                    .filter(path -> {
                        for (Path part : ROOT.relativize(path)) {
                            if (NOT_DOCUMENTS.contains(part.toString())) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .sorted()
                    .forEach(files::add);
        }
        return files;
    }

    /** The link targets of one line outside fenced code, code spans left out. */
    private static List<String> targets(String line) {
        List<String> targets = new ArrayList<>();
        String text = CODE_SPAN.matcher(line).replaceAll("");
        Matcher definition = REFERENCE_DEFINITION.matcher(text);
        if (definition.find()) {
            targets.add(definition.group(1));
        }
        Matcher inline = INLINE_LINK.matcher(text);
        while (inline.find()) {
            targets.add(inline.group(1));
        }
        return targets;
    }

    /** Why a link leads nowhere, or null when it resolves. */
    private static String problem(Path document, String target) throws IOException {
        if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
            return null; // https:, mailto: and the like
        }
        if (target.startsWith("/")) {
            return "an absolute path: write it relative to this file";
        }
        int hash = target.indexOf('#');
        String file = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
        String fragment = hash < 0 ? "" : target.substring(hash + 1);
        Path resolved =
                file.isEmpty() ? document : document.getParent().resolve(file).normalize();
        if (!resolved.startsWith(ROOT)) {
            return "outside the repository";
        }
        if (!Files.exists(resolved)) {
            return "no such file";
        }
        if (!fragment.isEmpty() && resolved.toString().endsWith(".md")) {
            List<String> lines = Files.readAllLines(resolved);
            Set<String> anchors = new HashSet<>(anchors(lines));
            Matcher html = HTML_ANCHOR.matcher(String.join("\n", lines));
            while (html.find()) {
                anchors.add(html.group(1));
            }
            if (!anchors.contains(URLDecoder.decode(fragment, StandardCharsets.UTF_8))) {
                return "no such heading in " + ROOT.relativize(resolved);
            }
        }
        return null;
    }

    /** The anchors GitHub gives a Markdown file's headings, in order. */
    static List<String> anchors(List<String> lines) {
        List<String> anchors = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : lines) {
            if (line.strip().startsWith("```") || line.strip().startsWith("~~~")) {
                fenced = !fenced;
                continue;
            }
            if (fenced || !line.matches("^ {0,3}#{1,6}\\s+.*")) {
                continue;
            }
            String title = line.strip()
                    .replaceFirst("^#+\\s+", "")
                    .replaceFirst("\\s+#+\\s*$", "") // closing hashes
                    .replaceAll("!?\\[([^\\]]*)\\]\\([^)]*\\)", "$1") // a link's text stays
                    .strip()
                    .toLowerCase(Locale.ROOT);
            String slug = title.replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
            int count = seen.merge(slug, 1, Integer::sum);
            anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
        }
        return anchors;
    }
}
