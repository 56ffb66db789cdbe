package dev.pastebin.api.remove;

import dev.pastebin.core.paste.Paste;

/** What a reveal of a read-once paste comes to. */
public sealed interface Reveal {

    /** This caller, and nobody else ever, gets the content; the paste is gone. */
    record Revealed(Paste paste, byte[] content) implements Reveal {}

    /** Still being stored: come back later, nothing was burnt. */
    record Pending(Paste paste) implements Reveal {}
}
