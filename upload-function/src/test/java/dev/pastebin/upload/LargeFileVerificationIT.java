package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.moderation.ContentBlocklist;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteFile;
import dev.pastebin.core.paste.PasteFileRepository;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * A large paste's files verified through the upload queue (docs/design.md, "Large files: straight to S3"): the
 * bucket notifies the queue of objects created under staging/ (configured as infra/local/bootstrap.py configures
 * the local bucket), a client PUTs each file to its pre-signed URL, and the upload function, fed by the queue as
 * Lambda feeds it, checks size and SHA-256, moves each file to files/ and makes the paste PROCESSED when its last
 * file is there; a file whose bytes are not the declared ones fails the paste with the reason.
 */
@RealServices
class LargeFileVerificationIT {

    private static final Duration WITHIN = Duration.ofSeconds(60);

    private UploadWorld world;
    private PasteFileRepository files;
    private StagedUploads uploads;

    @BeforeEach
    void start() throws Exception {
        // the function's S3 through the fault proxy, as in every upload IT (none injects a fault here)
        world = UploadWorld.start(10, 30, Map.of());
        files = world.context.getBean(PasteFileRepository.class);
        uploads = new StagedUploads(world);
        world.notifyOfStagedFiles();
    }

    @AfterEach
    void stop() {
        world.close();
    }

    @Test
    void eachFileIsVerifiedAndMovedAndThePasteIsProcessedWhenItsLastFileIsThere() throws Exception {
        byte[] first = "the first file\n".repeat(1000).getBytes(StandardCharsets.UTF_8);
        byte[] second = "a second one\n".getBytes(StandardCharsets.UTF_8);
        String code = world.shortCodes.next();
        world.repository.save(TestPastes.inProgress(code, "it-user", "a".repeat(64), first.length + second.length));
        PasteFile one = files.save(PasteFile.staged(code, 0, "first.txt", first.length, sha(first), "text/plain"));
        PasteFile two = files.save(PasteFile.staged(code, 1, "second.txt", second.length, sha(second), "text/plain"));

        assertEquals(200, uploads.put(one, first).statusCode());
        world.mapping.runUntil(() -> verified(one), "the first file verified", WITHIN);
        assertEquals(PasteStatus.IN_PROGRESS, world.row(code).status(), "a file is still to come");

        assertEquals(200, uploads.put(two, second).statusCode());
        world.mapping.runUntil(() -> world.row(code).status() == PasteStatus.PROCESSED, "the paste PROCESSED", WITHIN);

        Paste processed = world.row(code);
        assertEquals("s3://" + world.bucket + "/files/" + code + "/", processed.s3Location());
        assertTrue(verified(two));
        assertArrayEquals(first, finalBytes(one));
        assertArrayEquals(second, finalBytes(two));
        for (PasteFile file : new PasteFile[] {one, two}) {
            assertThrows(
                    NoSuchKeyException.class,
                    () -> UploadWorld.S3.headObject(b -> b.bucket(world.bucket).key("staging/" + file.fileId())),
                    "the staged object is deleted once moved");
        }
        world.mapping.runUntilEmpty(WITHIN);
        assertEquals(0, world.deadLetterDepth(), "S3's test event and every record were acknowledged");
    }

    @Test
    void aFileWhoseBytesAreNotTheDeclaredOnesFailsThePasteWithTheReason() throws Exception {
        byte[] declared = "the bytes the create declared\n".getBytes(StandardCharsets.UTF_8);
        byte[] other = "some other bytes, same length\n".getBytes(StandardCharsets.UTF_8);
        assertEquals(declared.length, other.length);
        String code = world.shortCodes.next();
        world.repository.save(TestPastes.inProgress(code, "it-user", "b".repeat(64), declared.length));
        PasteFile file = files.save(PasteFile.staged(code, 0, "x.txt", declared.length, sha(declared), "text/plain"));

        // not through the signed PUT (which S3 would refuse): stored by other means, as a misbehaving client might
        UploadWorld.S3.putObject(
                b -> b.bucket(world.bucket).key("staging/" + file.fileId()), RequestBody.fromBytes(other));
        world.mapping.runUntil(() -> world.row(code).status() == PasteStatus.FAILED, "the paste FAILED", WITHIN);

        String reason = world.row(code).failureReason();
        assertTrue(reason.contains("hashes to " + sha(other)), reason);
        assertFalse(verified(file));
        assertThrows(
                NoSuchKeyException.class,
                () -> UploadWorld.S3.headObject(b -> b.bucket(world.bucket).key("files/" + file.fileId())),
                "nothing unverified is moved");
    }

    /**
     * A {@code curl -T} upload declares no SHA-256 (and signs none): its size is checked, the SHA-256 of what arrived
     * recorded on the file's row, and the paste PROCESSED; a file whose bytes are on the blocklist is refused as a
     * small paste's content is (row removed, takedown kept).
     */
    @Test
    void aFileWithoutADeclaredSha256IsVerifiedBySizeItsHashRecordedAndCheckedAgainstTheBlocklist() throws Exception {
        byte[] content = "a curl -T upload\n".repeat(100).getBytes(StandardCharsets.UTF_8);
        String code = world.shortCodes.next();
        world.repository.save(TestPastes.inProgress(code, "it-user", "c".repeat(64), content.length));
        PasteFile file = files.save(PasteFile.staged(
                code, 0, "upload.log", content.length, PasteFile.UNDECLARED_SHA256, "application/octet-stream"));

        assertEquals(200, uploads.putUnsigned(file, content).statusCode());
        world.mapping.runUntil(() -> world.row(code).status() == PasteStatus.PROCESSED, "the paste PROCESSED", WITHIN);

        assertEquals(sha(content), files.findById(file.fileId()).orElseThrow().sha256(), "the hash of what arrived");
        assertArrayEquals(content, finalBytes(file));

        byte[] blocked = ("blocked upload " + code + "\n").getBytes(StandardCharsets.UTF_8);
        world.context
                .getBean(ContentBlocklist.class)
                .add(sha(blocked), "known abuse", "arn:aws:iam::000000000000:user/operator");
        String refusedCode = world.shortCodes.next();
        world.repository.save(TestPastes.inProgress(refusedCode, "it-user", "d".repeat(64), blocked.length));
        PasteFile refused = files.save(PasteFile.staged(
                refusedCode, 0, "bad.bin", blocked.length, PasteFile.UNDECLARED_SHA256, "application/octet-stream"));

        assertEquals(200, uploads.putUnsigned(refused, blocked).statusCode());
        world.mapping.runUntil(
                () -> world.repository.findById(refusedCode).isEmpty(), "the blocked paste removed", WITHIN);
        assertThrows(
                NoSuchKeyException.class,
                () -> UploadWorld.S3.headObject(b -> b.bucket(world.bucket).key("files/" + refused.fileId())),
                "a blocked file is not kept");
    }

    private boolean verified(PasteFile file) {
        return files.findById(file.fileId()).orElseThrow().verified();
    }

    private byte[] finalBytes(PasteFile file) {
        return UploadWorld.S3
                .getObjectAsBytes(b -> b.bucket(world.bucket).key("files/" + file.fileId()))
                .asByteArray();
    }

    private static String sha(byte[] content) {
        return ContentHash.sha256Hex(content);
    }
}
