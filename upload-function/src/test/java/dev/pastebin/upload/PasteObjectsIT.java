package dev.pastebin.upload;

import java.util.HexFormat;
import java.util.Base64;
import software.amazon.awssdk.services.s3.model.ChecksumMode;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.retry.ErrorClass;
import dev.pastebin.core.retry.FailureClassifier;
import dev.pastebin.core.support.RealServices;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The PutObject the worker makes, against LocalStack: content type, and S3 enforcing the row's SHA-256. */
@RealServices
class PasteObjectsIT {

    private UploadWorld world;

    @AfterEach
    void close() {
        if (world != null) {
            world.close();
        }
    }

    @Test
    void storesTheBytesAsUtf8TextWithTheirSha256() throws Exception {
        world = UploadWorld.start(10, 30, Map.of());
        byte[] content = UploadWorld.content("Grüße 🌍\r\n\tend");
        world.context.getBean(PasteObjects.class).put("abcdefgh", content, ContentHash.sha256Hex(content));

        var object = world.object("abcdefgh").orElseThrow();
        assertArrayEquals(content, object.asByteArray());
        assertEquals("text/plain; charset=utf-8", object.response().contentType());
        var head = UploadWorld.S3.headObject(b -> b.bucket(world.bucket).key("pastes/abcdefgh")
                .checksumMode(ChecksumMode.ENABLED));
        assertEquals(Base64.getEncoder().encodeToString(HexFormat.of().parseHex(ContentHash.sha256Hex(content))),
                head.checksumSHA256());
    }

    @Test
    void s3RejectsBytesThatDoNotMatchTheHashSent() throws Exception {
        world = UploadWorld.start(10, 30, Map.of());
        byte[] content = UploadWorld.content("what arrived");
        String otherHash = ContentHash.sha256Hex(UploadWorld.content("what was posted"));

        var e = assertThrows(S3Exception.class, () -> world.context.getBean(PasteObjects.class).put("mismatch", content, otherHash));

        assertEquals(400, e.statusCode());
        assertEquals(ErrorClass.INVALID_REQUEST, new FailureClassifier().classify(e).errorClass());
        assertTrue(world.object("mismatch").isEmpty());
    }
}
