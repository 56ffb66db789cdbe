package dev.pastebin.core.paste;

import com.google.re2j.Pattern;
import io.micronaut.core.annotation.Nullable;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The labels a paste's creator may give it (docs/design.md, "Web page"): the language the web page highlights it
 * as, and a file name that a download gets. Both optional and never interpreted by the server beyond these
 * checks: the page puts them in as text, like the content.
 *
 * @param language one of {@link #LANGUAGES}, or {@code null}: the page then detects one
 * @param fileName 1 to 128 characters without path separators or control characters, or {@code null}
 */
public record PasteMetadata(
        @Nullable String language, @Nullable String fileName) {

    public static final PasteMetadata NONE = new PasteMetadata(null, null);

    /**
     * Exactly the languages of the highlighter the web page vendors (highlight.js's common build, its
     * {@code listLanguages()}; WebPageBrowserIT checks the two agree): a label the page could not highlight
     * would be a promise it cannot keep. {@code plaintext} asks for no highlighting and no detection.
     */
    public static final Set<String> LANGUAGES = Set.of(
            "bash",
            "c",
            "cpp",
            "csharp",
            "css",
            "diff",
            "go",
            "graphql",
            "ini",
            "java",
            "javascript",
            "json",
            "kotlin",
            "less",
            "lua",
            "makefile",
            "markdown",
            "objectivec",
            "perl",
            "php",
            "php-template",
            "plaintext",
            "python",
            "python-repl",
            "r",
            "ruby",
            "rust",
            "scss",
            "shell",
            "sql",
            "swift",
            "typescript",
            "vbnet",
            "wasm",
            "xml",
            "yaml");

    /** The language an uploaded file's extension (lower-cased) or whole name names, for the common ones. */
    private static final Map<String, String> LANGUAGE_BY_EXTENSION = Map.ofEntries(
            Map.entry("sh", "bash"),
            Map.entry("bash", "bash"),
            Map.entry("zsh", "bash"),
            Map.entry("c", "c"),
            Map.entry("h", "c"),
            Map.entry("cpp", "cpp"),
            Map.entry("cc", "cpp"),
            Map.entry("cxx", "cpp"),
            Map.entry("hpp", "cpp"),
            Map.entry("cs", "csharp"),
            Map.entry("css", "css"),
            Map.entry("diff", "diff"),
            Map.entry("patch", "diff"),
            Map.entry("go", "go"),
            Map.entry("graphql", "graphql"),
            Map.entry("gql", "graphql"),
            Map.entry("ini", "ini"),
            Map.entry("toml", "ini"),
            Map.entry("cfg", "ini"),
            Map.entry("conf", "ini"),
            Map.entry("java", "java"),
            Map.entry("js", "javascript"),
            Map.entry("mjs", "javascript"),
            Map.entry("cjs", "javascript"),
            Map.entry("jsx", "javascript"),
            Map.entry("json", "json"),
            Map.entry("kt", "kotlin"),
            Map.entry("kts", "kotlin"),
            Map.entry("less", "less"),
            Map.entry("lua", "lua"),
            Map.entry("mk", "makefile"),
            Map.entry("makefile", "makefile"),
            Map.entry("md", "markdown"),
            Map.entry("markdown", "markdown"),
            Map.entry("m", "objectivec"),
            Map.entry("mm", "objectivec"),
            Map.entry("pl", "perl"),
            Map.entry("pm", "perl"),
            Map.entry("php", "php"),
            Map.entry("py", "python"),
            Map.entry("r", "r"),
            Map.entry("rb", "ruby"),
            Map.entry("rs", "rust"),
            Map.entry("scss", "scss"),
            Map.entry("sql", "sql"),
            Map.entry("swift", "swift"),
            Map.entry("ts", "typescript"),
            Map.entry("tsx", "typescript"),
            Map.entry("vb", "vbnet"),
            Map.entry("wat", "wasm"),
            Map.entry("xml", "xml"),
            Map.entry("html", "xml"),
            Map.entry("htm", "xml"),
            Map.entry("svg", "xml"),
            Map.entry("yaml", "yaml"),
            Map.entry("yml", "yaml"),
            Map.entry("txt", "plaintext"),
            Map.entry("log", "plaintext"));

    static final int MAX_FILE_NAME_LENGTH = 128;
    /**
     * No path (a download must not name a directory), no control or invisible formatting characters (a
     * right-to-left override could disguise "exe.txt" as "txt.exe"), no unpaired surrogates.
     */
    private static final Pattern FILE_NAME =
            Pattern.compile("[^\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}/\\\\]{1," + MAX_FILE_NAME_LENGTH + "}");

    private static final String LANGUAGE_RULE = "language must be one of " + new TreeSet<>(LANGUAGES);
    private static final String FILE_NAME_RULE = "fileName must be 1 to " + MAX_FILE_NAME_LENGTH
            + " characters, not \".\" or \"..\", without '/', '\\\\' or control characters";

    /** Labels the creator chose explicitly (JSON fields, query parameters): anything invalid is a 400. */
    public static PasteMetadata of(@Nullable String language, @Nullable String fileName) {
        if (language != null && !LANGUAGES.contains(language)) {
            throw new InvalidLanguageException(LANGUAGE_RULE);
        }
        if (fileName != null && !isValidFileName(fileName)) {
            throw new InvalidFileNameException(FILE_NAME_RULE);
        }
        return new PasteMetadata(language, fileName);
    }

    /**
     * The labels of a file a client uploaded as it is ({@code curl -F file=@notes.py}): its name, without any
     * directory a client put in front of it (RFC 7578 asks for none), and the language its extension names. The
     * client did not choose a label here, so a name that breaks the rules is not stored rather than refused.
     */
    public static PasteMetadata ofUploadedFile(@Nullable String uploadedName) {
        if (uploadedName == null) {
            return NONE;
        }
        String name =
                uploadedName.substring(Math.max(uploadedName.lastIndexOf('/'), uploadedName.lastIndexOf('\\')) + 1);
        if (!isValidFileName(name)) {
            return NONE;
        }
        return new PasteMetadata(languageOfFileName(name).orElse(null), name);
    }

    /** The language a file name's extension (or a name such as {@code Makefile}) names, if a common one. */
    static Optional<String> languageOfFileName(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        String extension = lower.substring(lower.lastIndexOf('.') + 1);
        return Optional.ofNullable(LANGUAGE_BY_EXTENSION.get(extension));
    }

    private static boolean isValidFileName(String fileName) {
        return FILE_NAME.matcher(fileName).matches() && !fileName.equals(".") && !fileName.equals("..");
    }
}
