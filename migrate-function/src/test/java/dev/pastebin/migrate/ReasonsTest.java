package dev.pastebin.migrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

class ReasonsTest {

    @Test
    void aShortReasonIsKeptOnOneLine() {
        assertEquals("first line second line", Reasons.shorten("first line\n  second line\n"));
        assertEquals("no reason given", Reasons.shorten(null));
    }

    @Test
    void aLongReasonIsCutBelowCloudFormationsLimitAndSaysSo() {
        String shortened = Reasons.shorten("x".repeat(5000));
        assertTrue(shortened.length() <= Reasons.MAX_LENGTH && shortened.length() < 1000, "" + shortened.length());
        assertTrue(shortened.endsWith("[...]"), shortened);
    }

    @Test
    void aFailureIsDescribedDownToItsRootCauseEachMessageOnce() {
        var root = new SQLException("column \"language\" of relation \"pastes\" already exists", "42701");
        var wrapped = new IllegalStateException("migration V7 failed", new RuntimeException(root.getMessage(), root));
        assertEquals(
                "migration V7 failed: column \"language\" of relation \"pastes\" already exists",
                Reasons.describe(wrapped));
        assertEquals("NullPointerException", Reasons.describe(new NullPointerException()));
    }
}
