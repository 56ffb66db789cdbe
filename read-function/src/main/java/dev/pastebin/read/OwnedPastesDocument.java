package dev.pastebin.read;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pastebin.api.owner.OwnedPaste;
import dev.pastebin.api.owner.OwnedPastesPage;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.serde.annotation.Serdeable;
import java.util.List;

/**
 * A page of {@code GET /me/pastes} as JSON: the pastes, newest first, and {@code next}, the cursor to pass as
 * {@code after} for the next page ({@code null} on the last page). {@code expiresAt} and {@code next} are always
 * present.
 */
@Serdeable
public record OwnedPastesDocument(
        List<Entry> pastes,
        @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String next) {

    /** One paste: its code, its state as readers find it now, when it was created and expires, its size. */
    @Serdeable
    public record Entry(
            String shortCode,
            String state,
            String createdAt,

            @JsonInclude(JsonInclude.Include.ALWAYS) @Nullable
            String expiresAt,

            int sizeBytes,
            boolean readOnce) {

        static Entry of(OwnedPaste paste) {
            return new Entry(
                    paste.shortCode(),
                    paste.state().name(),
                    paste.createdAt().toString(),
                    paste.expiresAt() == null ? null : paste.expiresAt().toString(),
                    paste.sizeBytes(),
                    paste.readOnce());
        }
    }

    static OwnedPastesDocument of(OwnedPastesPage page) {
        return new OwnedPastesDocument(
                page.pastes().stream().map(Entry::of).toList(),
                page.next() == null ? null : page.next().encode());
    }
}
