package dev.pastebin.api.remove;

import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteFile;
import java.net.URL;
import java.time.Instant;
import java.util.List;

/** What a reveal of a read-once paste comes to. */
public sealed interface Reveal {

    /** This caller, and nobody else ever, gets the content; the paste is gone. */
    record Revealed(Paste paste, byte[] content) implements Reveal {}

    /**
     * A large paste (docs/design.md, "Reading once"): this caller, and nobody else ever, gets a link to each file, a
     * pre-signed GET valid until {@code linksExpireAt}; the paste answers 404 from now on, and its files are deleted
     * once the links have expired.
     */
    record RevealedFiles(Paste paste, List<RevealedFile> files, Instant linksExpireAt) implements Reveal {}

    /** One file of a revealed large paste and the link that reads it. */
    record RevealedFile(PasteFile file, URL link) {}

    /** Still being stored: come back later, nothing was burnt. */
    record Pending(Paste paste) implements Reveal {}
}
