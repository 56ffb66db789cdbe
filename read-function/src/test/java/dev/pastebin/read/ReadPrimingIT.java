package dev.pastebin.read;

import dev.pastebin.core.priming.ApiRequestPrimer;
import dev.pastebin.core.priming.DatabasePrimer;
import dev.pastebin.core.priming.Primer;
import dev.pastebin.core.priming.Priming;
import dev.pastebin.core.priming.StoragePrimer;
import dev.pastebin.core.support.HttpApi;
import dev.pastebin.core.support.RealServices;
import io.micronaut.crac.test.CheckpointSimulator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SnapStart priming of the read function: its hot path runs once against the real services, and a restore serves. */
@RealServices
class ReadPrimingIT {

    private static final String BUCKET = "read-priming-it-" + UUID.randomUUID();
    private static HttpApi api;
    private static S3Client s3;

    @BeforeAll
    static void start() {
        api = HttpApi.start(Map.of("pastebin.storage.bucket", BUCKET, "aws.s3.path-style-access-enabled", true));
        s3 = api.context().getBean(S3Client.class);
        s3.createBucket(b -> b.bucket(BUCKET));
    }

    @AfterAll
    static void stop() {
        if (s3 != null) {
            s3.deleteBucket(b -> b.bucket(BUCKET));
        }
        if (api != null) {
            api.close();
        }
    }

    @Test
    void primesTheHandlerTheDatabaseAndTheBucket() {
        // The test class path also holds the create function (CreateThenReadIT), so its primers are here too.
        Set<Class<?>> primers = primerClasses(api);
        assertTrue(primers.containsAll(Set.of(ApiRequestPrimer.class, DatabasePrimer.class, StoragePrimer.class)), primers::toString);
        assertEquals(primers.size(), api.context().getBean(Priming.class).run("test"), "every primer succeeds against the real services");
    }

    @Test
    void aPrimerThatCannotReachItsServiceIsSkippedNotFatal() {
        try (HttpApi noBucket = HttpApi.start(Map.of("pastebin.storage.bucket", "no-such-bucket-" + UUID.randomUUID(),
                "aws.s3.path-style-access-enabled", true))) {
            assertEquals(primerClasses(noBucket).size() - 1, noBucket.context().getBean(Priming.class).run("test"),
                    "HeadBucket fails, the others run");
        }
    }

    private static Set<Class<?>> primerClasses(HttpApi api) {
        return api.context().getBeansOfType(Primer.class).stream().map(Object::getClass).collect(Collectors.toSet());
    }

    @Test
    void aRestoredFunctionReadsThroughTheResumedPool() {
        CheckpointSimulator snapStart = api.context().getBean(CheckpointSimulator.class);
        snapStart.runBeforeCheckpoint();
        snapStart.runAfterRestore();

        assertEquals(0, s3.listObjectsV2(b -> b.bucket(BUCKET)).keyCount(), "priming stored no object");
        HttpApi.Response missing = api.send(api.fixture("read-paste").path("/pastes/zzzzzzzz"));
        assertEquals(404, missing.status(), missing.text());
    }
}
