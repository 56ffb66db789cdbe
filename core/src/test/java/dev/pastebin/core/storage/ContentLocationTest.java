package dev.pastebin.core.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ContentLocationTest {

    @Test
    void parsesTheLocationTheWorkerRecords() {
        assertEquals(
                Optional.of(new ContentLocation("pastebin-pastes", "pastes/aB3xYz9Q")),
                ContentLocation.parse("s3://pastebin-pastes/pastes/aB3xYz9Q"));
    }

    @Test
    void aRecordedLocationParsesBackToItself() {
        var location = new ContentLocation("bucket", "pastes/a/b");
        assertEquals("s3://bucket/pastes/a/b", location.uri());
        assertEquals(Optional.of(location), ContentLocation.parse(location.uri()));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"https://bucket/key", "s3://bucket", "s3:///key", "s3://bucket/", "s3://", "s3:/bucket/key", ""})
    void rejectsWhatIsNotABucketAndAKey(String uri) {
        assertTrue(ContentLocation.parse(uri).isEmpty(), uri);
    }

    @Test
    void rejectsNothing() {
        assertTrue(ContentLocation.parse(null).isEmpty());
    }

    @Test
    void cannotBeBuiltWithoutABucketOrAKey() {
        assertThrows(IllegalArgumentException.class, () -> new ContentLocation("", "k"));
        assertThrows(IllegalArgumentException.class, () -> new ContentLocation("a/b", "k"));
        assertThrows(IllegalArgumentException.class, () -> new ContentLocation("b", ""));
    }
}
