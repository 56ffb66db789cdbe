package dev.pastebin.api.owner;

import io.micronaut.core.annotation.Nullable;
import java.time.Instant;

/**
 * One paste of its owner's listing: what the owner may want to know about it without reading it. Never its content
 * nor anything of its deletion token.
 */
public record OwnedPaste(
        String shortCode,
        State state,
        Instant createdAt,
        @Nullable Instant expiresAt,
        int sizeBytes,
        boolean readOnce) {

    /**
     * The paste as its readers find it now: {@code READY} (readable), {@code IN_PROGRESS} (still being stored),
     * {@code FAILED} (its upload failed for good; readers get 404) or {@code EXPIRED} (readers get 404). Until the
     * sweeper removes them, failed and expired pastes stay in the listing; the owner may delete a failed one (an expired
     * one is gone for deletes too, as for readers). A paste an
     * operator took down has no row any more and is not listed.
     */
    public enum State {
        READY,
        IN_PROGRESS,
        FAILED,
        EXPIRED
    }
}
