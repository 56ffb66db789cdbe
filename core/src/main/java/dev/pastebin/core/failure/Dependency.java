package dev.pastebin.core.failure;

/**
 * What a request depends on, named the way a client may be told (in a 503's message and in metrics): a plain
 * word, never a host, bucket or queue name.
 */
public enum Dependency {
    DATABASE("database"),
    UPLOAD_QUEUE("upload queue"),
    /** The queue of moderation work (notifications of abuse reports, edge invalidations). */
    MODERATION_OUTBOX("moderation queue"),
    STORAGE("storage");

    private final String label;

    Dependency(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
