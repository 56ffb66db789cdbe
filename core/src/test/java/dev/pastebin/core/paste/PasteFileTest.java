package dev.pastebin.core.paste;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class PasteFileTest {

    @Test
    void aFilesIdNamesItsPaste() {
        assertEquals("aB3xYz9Q", PasteFile.shortCodeOf(PasteFile.idOf("aB3xYz9Q", 7)));
    }

    @Test
    void anIdWithoutASlashNamesNoPaste() {
        assertEquals("", PasteFile.shortCodeOf("aB3xYz9Q"));
    }
}
