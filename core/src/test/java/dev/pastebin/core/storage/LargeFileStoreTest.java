package dev.pastebin.core.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The Content-Disposition a large file's pre-signed read asks S3 to answer with. */
class LargeFileStoreTest {

    /** curl -OJ reads only {@code filename=}; browsers prefer {@code filename*=}, which keeps any name (RFC 6266). */
    @Test
    void anAsciiNameIsGivenInBothForms() {
        assertEquals(
                "attachment; filename=\"big.iso\"; filename*=UTF-8''big.iso", LargeFileStore.attachment("big.iso"));
    }

    @Test
    void theFallbackReplacesWhatAQuotedAsciiNameCannotHold() {
        assertEquals(
                "attachment; filename=\"r_sum_ _final_ 1_2.pdf\"; "
                        + "filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22%201%5C2.pdf",
                LargeFileStore.attachment("résumé \"final\" 1\\2.pdf"));
    }
}
