package dev.pastebin.remove;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.paste.DeleteTokens;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteFile;
import dev.pastebin.core.paste.PasteFileRepository;
import dev.pastebin.core.paste.PasteMetadata;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.storage.LargeFileStore;
import dev.pastebin.core.support.RealServices;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/**
 * Deleting a large paste with its token (docs/design.md, "Large files: straight to S3") removes every one of its
 * files, the verified ones under files/ and any still staged, with its rows.
 */
@RealServices
class DeleteLargePasteIT {

    private static RemoveWorld world;

    @BeforeAll
    static void start() {
        world = new RemoveWorld("delete-large-it");
    }

    @AfterAll
    static void stop() {
        if (world != null) {
            world.close();
        }
    }

    @Test
    void aDeleteRemovesEveryFileStagedOrVerified() {
        String code = world.api.context().getBean(ShortCodes.class).next();
        String token = "large-paste-token-" + code;
        world.api
                .context()
                .getBean(PasteRepository.class)
                .save(Paste.inProgress(
                        code, null, "f".repeat(64), 20, DeleteTokens.hashOf(token), null, false, PasteMetadata.NONE));
        PasteFileRepository files = world.api.context().getBean(PasteFileRepository.class);
        LargeFileStore store = world.api.context().getBean(LargeFileStore.class);
        PasteFile verified = files.save(PasteFile.staged(code, 0, "a.bin", 10, "1".repeat(64), "application/zip"));
        PasteFile staged = files.save(PasteFile.staged(code, 1, "b.bin", 10, "2".repeat(64), "application/zip"));
        List<String> keys = List.of(store.finalKey(verified.fileId()), store.stagingKey(staged.fileId()));
        keys.forEach(
                key -> world.s3.putObject(b -> b.bucket(world.bucket).key(key), RequestBody.fromString("0123456789")));
        files.markVerified(verified.fileId());

        HttpApi.Response deleted = world.api.send(world.delete(code, token));

        assertEquals(204, deleted.status(), deleted.text());
        assertTrue(world.row(code).isEmpty());
        assertTrue(files.findByShortCodeOrderByPosition(code).isEmpty(), "the file rows go with the paste");
        for (String key : keys) {
            assertFalse(exists(key), key + " is removed");
        }
    }

    private static boolean exists(String key) {
        try {
            world.s3.headObject(b -> b.bucket(world.bucket).key(key));
            return true;
        } catch (NoSuchKeyException e) {
            return false;
        }
    }
}
