package dev.pastebin.core.moderation;

/** What a {@code moderation_audit} entry records (the table's CHECK constraint lists the same labels). */
public enum ModerationAction {
    TAKEDOWN("takedown"),
    BLOCK("block"),
    UNBLOCK("unblock"),
    /** The upload worker refused a queued job whose content is blocklisted: the paste was removed unstored. */
    UPLOAD_REFUSED("upload-refused");

    private final String label;

    ModerationAction(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
