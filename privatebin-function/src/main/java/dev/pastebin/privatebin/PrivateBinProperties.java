package dev.pastebin.privatebin;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;

/**
 * The PrivateBin protocol's settings, bound from {@code pastebin.privatebin.*} (docs/operating.md, "Settings").
 *
 * @param pendingWait until how long after its create a read of a paste that is still being stored waits for it,
 *                    polling its row: the clients have no answer meaning "come back later", and one that reads at
 *                    once after its create must not be told to try again; an older paste is answered at once
 * @param pendingPoll how often the row is read again meanwhile: at least {@code 10ms}, so that the wait can never
 *                    become a busy loop on the database
 */
@ConfigurationProperties("pastebin.privatebin")
public record PrivateBinProperties(
        @NotNull @Bindable(defaultValue = "5s") Duration pendingWait,
        @NotNull @Bindable(defaultValue = "250ms") Duration pendingPoll) {

    static final Duration MIN_PENDING_POLL = Duration.ofMillis(10);

    public PrivateBinProperties {
        if (pendingWait.isNegative()) {
            throw new IllegalArgumentException("pastebin.privatebin.pending-wait must not be negative: " + pendingWait);
        }
        if (pendingPoll.compareTo(MIN_PENDING_POLL) < 0) {
            throw new IllegalArgumentException("pastebin.privatebin.pending-poll must be at least "
                    + MIN_PENDING_POLL.toMillis() + "ms (a shorter one busy-polls the database): " + pendingPoll);
        }
    }
}
