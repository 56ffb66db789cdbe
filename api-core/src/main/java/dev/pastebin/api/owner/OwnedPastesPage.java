package dev.pastebin.api.owner;

import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * A page of the owner's listing, newest first.
 *
 * @param next where the next page starts; null when this page is the last
 */
public record OwnedPastesPage(
        List<OwnedPaste> pastes, @Nullable PageCursor next) {

    public OwnedPastesPage {
        pastes = List.copyOf(pastes);
    }
}
