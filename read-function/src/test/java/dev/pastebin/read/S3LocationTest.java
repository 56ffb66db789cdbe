package dev.pastebin.read;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class S3LocationTest {

    @Test
    void parsesTheLocationTheWorkerRecords() {
        assertEquals(new ReadPasteService.S3Location("pastebin-pastes", "pastes/aB3xYz9Q"),
                ReadPasteService.S3Location.parse("s3://pastebin-pastes/pastes/aB3xYz9Q"));
    }

    @Test
    void rejectsWhatIsNotABucketAndAKey() {
        assertNull(ReadPasteService.S3Location.parse(null));
        assertNull(ReadPasteService.S3Location.parse("https://bucket/key"));
        assertNull(ReadPasteService.S3Location.parse("s3://bucket"));
        assertNull(ReadPasteService.S3Location.parse("s3:///key"));
        assertNull(ReadPasteService.S3Location.parse("s3://bucket/"));
    }
}
