package dev.pastebin.infra.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A Markdown file of the repository, read as its sections and tables, so a test can hold a doc to its source. */
record MarkdownDocument(String name, String text) {

    private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");

    static MarkdownDocument read(String pathFromRepositoryRoot) throws IOException {
        return new MarkdownDocument(
                pathFromRepositoryRoot, Files.readString(Path.of("..").resolve(pathFromRepositoryRoot)));
    }

    /** The text under a heading (any level), up to the next heading of the same or a higher level. */
    MarkdownDocument section(String heading) {
        for (String marks : List.of("## ", "### ", "#### ", "# ")) {
            int start = text.indexOf("\n" + marks + heading + "\n");
            if (start < 0) {
                continue;
            }
            int body = start + marks.length() + heading.length() + 2;
            int end = body;
            while (true) {
                end = text.indexOf("\n#", end);
                if (end < 0) {
                    end = text.length();
                    break;
                }
                int level = 0;
                while (end + 1 + level < text.length() && text.charAt(end + 1 + level) == '#') {
                    level++;
                }
                if (text.charAt(end + 1 + level) == ' ' && level <= marks.length() - 1 && !inFence(end)) {
                    break;
                }
                end++;
            }
            return new MarkdownDocument(name + ", \"" + heading + "\"", text.substring(body, end));
        }
        throw new AssertionError(name + " has no section \"" + heading + "\"");
    }

    private boolean inFence(int offset) {
        int fences = 0;
        for (int i = text.indexOf("```"); i >= 0 && i < offset; i = text.indexOf("```", i + 3)) {
            fences++;
        }
        return fences % 2 == 1;
    }

    /** The rows of the first table whose header row starts with these cells, each row as its cells. */
    List<List<String>> table(String... headerStart) {
        String[] lines = text.split("\n");
        for (int i = 0; i + 1 < lines.length; i++) {
            List<String> header = cells(lines[i]);
            if (header.size() >= headerStart.length
                    && header.subList(0, headerStart.length).equals(Arrays.asList(headerStart))
                    && lines[i + 1].startsWith("|---")) {
                List<List<String>> rows = new ArrayList<>();
                for (int j = i + 2; j < lines.length && lines[j].startsWith("|"); j++) {
                    rows.add(cells(lines[j]));
                }
                return rows;
            }
        }
        throw new AssertionError(name + " has no table starting with " + Arrays.toString(headerStart));
    }

    /** Every {@code `code span`} of a cell or a text. */
    static List<String> codeSpans(String text) {
        List<String> spans = new ArrayList<>();
        Matcher m = CODE_SPAN.matcher(text);
        while (m.find()) {
            spans.add(m.group(1));
        }
        return spans;
    }

    private static List<String> cells(String line) {
        if (!line.startsWith("|")) {
            return List.of();
        }
        // a cell may hold an escaped pipe (\|) in a code span
        String[] parts = line.substring(1).split("(?<!\\\\)\\|", -1);
        List<String> cells = new ArrayList<>();
        for (int k = 0; k < parts.length - 1; k++) {
            cells.add(parts[k].trim());
        }
        return cells;
    }
}
