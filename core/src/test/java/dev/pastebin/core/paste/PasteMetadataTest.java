package dev.pastebin.core.paste;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PasteMetadataTest {

    @Test
    void chosenLabelsWithinTheRulesAreKept() {
        assertEquals(new PasteMetadata("rust", "main.rs"), PasteMetadata.of("rust", "main.rs"));
        assertEquals(
                new PasteMetadata("php-template", "x".repeat(128)), PasteMetadata.of("php-template", "x".repeat(128)));
        assertEquals(PasteMetadata.NONE, PasteMetadata.of(null, null));
        assertEquals(new PasteMetadata(null, "Grüße ✓ (1).txt"), PasteMetadata.of(null, "Grüße ✓ (1).txt"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Java", "c++", "js", "klingon", "java "})
    void aLanguageOutsideTheHighlightersIsRefused(String language) {
        var refused = assertThrows(InvalidLanguageException.class, () -> PasteMetadata.of(language, null));
        assertEquals(true, refused.getMessage().contains("java"), refused.getMessage());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"", ".", "..", "a/b.txt", "a\\b.txt", "tab\there", "line\nbreak", "\u202Etxt.exe", "\uD800.txt"})
    void aFileNameBreakingTheRulesIsRefused(String fileName) {
        assertThrows(InvalidFileNameException.class, () -> PasteMetadata.of(null, fileName));
        assertThrows(InvalidFileNameException.class, () -> PasteMetadata.of(null, "x".repeat(129)));
    }

    @Test
    void anUploadedFileNamesItsLanguageByExtension() {
        assertEquals(new PasteMetadata("python", "hello.PY"), PasteMetadata.ofUploadedFile("C:\\work\\hello.PY"));
        assertEquals(new PasteMetadata("makefile", "Makefile"), PasteMetadata.ofUploadedFile("Makefile"));
        assertEquals(new PasteMetadata("yaml", "ci.yml"), PasteMetadata.ofUploadedFile("/home/me/ci.yml"));
        assertEquals(new PasteMetadata(null, "README"), PasteMetadata.ofUploadedFile("README"));
        assertEquals(PasteMetadata.NONE, PasteMetadata.ofUploadedFile(null));
        assertEquals(PasteMetadata.NONE, PasteMetadata.ofUploadedFile("dir/"), "no name left");
        assertEquals(PasteMetadata.NONE, PasteMetadata.ofUploadedFile("x".repeat(200)), "dropped, not refused");
    }

    @Test
    void everyExtensionNamesAnAllowedLanguage() {
        for (String name : new String[] {
            "a.sh", "a.c", "a.cpp", "a.cs", "a.css", "a.diff", "a.go", "a.gql", "a.toml", "a.java", "a.mjs", "a.json",
            "a.kt", "a.less", "a.lua", "a.mk", "a.md", "a.m", "a.pl", "a.php", "a.py", "a.r", "a.rb", "a.rs", "a.scss",
            "a.sql", "a.swift", "a.ts", "a.vb", "a.wat", "a.svg", "a.yml", "a.txt"
        }) {
            String language = PasteMetadata.languageOfFileName(name).orElseThrow(() -> new AssertionError(name));
            assertEquals(true, PasteMetadata.LANGUAGES.contains(language), name + " -> " + language);
        }
    }
}
