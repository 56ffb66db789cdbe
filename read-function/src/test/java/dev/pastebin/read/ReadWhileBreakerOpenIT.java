package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import dev.pastebin.core.breaker.BreakerSnapshot;
import dev.pastebin.core.breaker.BreakerState;
import dev.pastebin.core.breaker.BreakerStore;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.support.RealServices;
import dev.pastebin.core.support.TestPastes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** While the S3 breaker is open no upload can finish before its next probe, and readers are told so. */
@RealServices
class ReadWhileBreakerOpenIT {

    @Test
    void aPendingPasteSaysToComeBackNoSoonerThanTheNextProbe() throws Exception {
        String breaker = "read-it-" + UUID.randomUUID().toString().substring(0, 8);
        try (HttpApi api = HttpApi.start(Map.of("pastebin.breaker.name", breaker))) {
            byte[] content = "waiting for S3".getBytes(StandardCharsets.UTF_8);
            String code = api.context().getBean(ShortCodes.class).next();
            api.context()
                    .getBean(PasteRepository.class)
                    .save(TestPastes.inProgress(code, null, ContentHash.sha256Hex(content), content.length));

            HttpApi.Response closed = api.send(api.fixture("read-paste").path("/pastes/" + code));
            assertEquals(202, closed.status(), closed.text());
            assertEquals("1", closed.header("Retry-After"), "closed: the usual wait");

            Instant probe = Instant.now().plusSeconds(40);
            api.context()
                    .getBean(BreakerStore.class)
                    .update(
                            breaker,
                            s -> new BreakerSnapshot(
                                    BreakerState.OPEN,
                                    s.windowStartedAt(),
                                    10,
                                    10,
                                    0,
                                    0,
                                    Instant.now(),
                                    probe,
                                    Duration.ofSeconds(40),
                                    "SERVER_ERROR",
                                    null));

            HttpApi.Response open = api.send(api.fixture("read-paste").path("/pastes/" + code));
            assertEquals(202, open.status(), open.text());
            int retryAfter = Integer.parseInt(open.header("Retry-After"));
            assertTrue(retryAfter >= 39 && retryAfter <= 40, "until the next probe: " + retryAfter);
            assertTrue(open.text().contains("IN_PROGRESS"));
        }
    }

    /**
     * Its fast attempts used up, a paste retries slowly (the breaker closed: too few calls to open it): its next
     * S3 attempt is no sooner than the hold schedule's wait after its last one, and readers are told so.
     */
    @Test
    void aPasteRetryingSlowlySaysToComeBackNoSoonerThanItsNextAttempt() throws Exception {
        String breaker = "read-it-" + UUID.randomUUID().toString().substring(0, 8);
        try (HttpApi api = HttpApi.start(Map.of("pastebin.breaker.name", breaker))) {
            byte[] content = "S3 failing for an hour".getBytes(StandardCharsets.UTF_8);
            String code = api.context().getBean(ShortCodes.class).next();
            PasteRepository repository = api.context().getBean(PasteRepository.class);
            repository.save(TestPastes.inProgress(code, null, ContentHash.sha256Hex(content), content.length));
            for (int attempt = 1; attempt <= 5; attempt++) {
                repository.recordUploadAttempt(code);
            }

            HttpApi.Response fast = api.send(api.fixture("read-paste").path("/pastes/" + code));
            assertEquals("1", fast.header("Retry-After"), "fast attempts left: the usual wait");

            // The 6th attempt failed an hour after its first wait began (a hold, say): every wait is max-hold now.
            repository.recordUploadAttempt(code);
            repository.recordFirstHold(code, Instant.now().minus(Duration.ofHours(1)));

            HttpApi.Response slow = api.send(api.fixture("read-paste").path("/pastes/" + code));
            assertEquals(202, slow.status(), slow.text());
            int retryAfter = Integer.parseInt(slow.header("Retry-After"));
            assertTrue(
                    retryAfter >= 295 && retryAfter <= 300,
                    "until its next attempt, 5 min after the last: " + retryAfter);
        }
    }
}
