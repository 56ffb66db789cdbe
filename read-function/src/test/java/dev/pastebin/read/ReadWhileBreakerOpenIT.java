package dev.pastebin.read;

import dev.pastebin.core.breaker.BreakerSnapshot;
import dev.pastebin.core.breaker.BreakerState;
import dev.pastebin.core.breaker.BreakerStore;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.support.HttpApi;
import dev.pastebin.core.support.RealServices;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** While the S3 breaker is open no upload can finish before its next probe, and readers are told so. */
@RealServices
class ReadWhileBreakerOpenIT {

    @Test
    void aPendingPasteSaysToComeBackNoSoonerThanTheNextProbe() throws Exception {
        String breaker = "read-it-" + UUID.randomUUID().toString().substring(0, 8);
        try (HttpApi api = HttpApi.start(Map.of("pastebin.breaker.name", breaker))) {
            byte[] content = "waiting for S3".getBytes(StandardCharsets.UTF_8);
            String code = api.context().getBean(ShortCodes.class).next();
            api.context().getBean(PasteRepository.class)
                    .save(Paste.inProgress(code, null, ContentHash.sha256Hex(content), content.length));

            HttpApi.Response closed = api.send(api.fixture("read-paste").path("/pastes/" + code));
            assertEquals(202, closed.status(), closed.text());
            assertEquals("1", closed.header("Retry-After"), "closed: the usual wait");

            Instant probe = Instant.now().plusSeconds(40);
            api.context().getBean(BreakerStore.class).update(breaker, s -> new BreakerSnapshot(BreakerState.OPEN,
                    s.windowStartedAt(), 10, 10, 0, 0, Instant.now(), probe, Duration.ofSeconds(40), "SERVER_ERROR"));

            HttpApi.Response open = api.send(api.fixture("read-paste").path("/pastes/" + code));
            assertEquals(202, open.status(), open.text());
            int retryAfter = Integer.parseInt(open.header("Retry-After"));
            assertTrue(retryAfter >= 39 && retryAfter <= 40, "until the next probe: " + retryAfter);
            assertTrue(open.text().contains("IN_PROGRESS"));
        }
    }
}
