package dev.pastebin.upload.hold;

import dev.pastebin.core.paste.PasteRepository;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When a paste's wait on the hold schedule began: the first time the open breaker held it or, its fast
 * attempts used up, it was first sent to the slow retries ({@code first_held_at}, written once). Both waits
 * share the one clock, so the hold limit is a limit on the paste, however its wait is made up.
 */
public final class FirstHold {

    private static final Logger LOG = LoggerFactory.getLogger(FirstHold.class);

    private final PasteRepository repository;

    public FirstHold(PasteRepository repository) {
        this.repository = repository;
    }

    /** Notes {@code at} as the first hold of {@code shortCode} (a row that has one keeps it). */
    public void note(String shortCode, Instant at) {
        try {
            repository.recordFirstHold(shortCode, at);
        } catch (RuntimeException notNoted) {
            // The next wait tries again; until then it counts from now, which only ever waits longer.
            LOG.warn("could not note the first hold of {}: {}", shortCode, notNoted.toString());
        }
    }
}
