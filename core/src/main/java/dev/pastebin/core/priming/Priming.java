package dev.pastebin.core.priming;

import jakarta.inject.Singleton;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every {@link Primer} of the function once. A primer that fails is logged and skipped: priming only
 * saves the first request some work, so it must never fail an Init or a snapshot.
 */
@Singleton
public class Priming {

    private static final Logger LOG = LoggerFactory.getLogger(Priming.class);

    private final List<Primer> primers;

    public Priming(List<Primer> primers) {
        this.primers = primers;
    }

    /** Runs each primer; returns how many succeeded. */
    public int run(String reason) {
        int succeeded = 0;
        for (Primer primer : primers) {
            long start = System.nanoTime();
            try {
                primer.prime();
                succeeded++;
                LOG.info("primed {} ({}) in {} ms", primer.name(), reason, (System.nanoTime() - start) / 1_000_000);
            } catch (Exception e) {
                LOG.warn(
                        "priming {} ({}) failed after {} ms; the first request will pay for it: {}",
                        primer.name(),
                        reason,
                        (System.nanoTime() - start) / 1_000_000,
                        e.toString());
            }
        }
        return succeeded;
    }
}
