package dev.pastebin.privatebin;

import dev.pastebin.api.read.LargeFileLinks;
import dev.pastebin.api.read.PasteLookup;
import dev.pastebin.api.read.ReadPasteService;
import dev.pastebin.api.remove.Reveal;
import dev.pastebin.api.remove.RevealPasteService;
import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteNotFoundException;
import dev.pastebin.core.paste.PasteTakenDownException;
import dev.pastebin.core.storage.PasteInconsistencyException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.json.JsonMapper;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reading a PrivateBin paste through the system's read path ({@link ReadPasteService}: the row decides, a PROCESSED
 * paste's content comes verified from S3). A paste still being stored is waited for, a bounded moment, polling its
 * row: PrivateBin's clients read right after they create and know no answer meaning "come back later". Burn after
 * reading is this system's read-once, consumed by the first read exactly as a reveal consumes it
 * ({@link RevealPasteService}: one winner among concurrent reads). Only pastes whose content is a PrivateBin
 * envelope are shown, and a read-once paste is checked to be one before it is burnt.
 */
@Singleton
class ReadEncryptedPasteService {

    private static final Logger LOG = LoggerFactory.getLogger(ReadEncryptedPasteService.class);

    private final ReadPasteService reads;
    private final RevealPasteService reveals;
    private final LargeFileLinks largeFiles;
    private final JsonMapper json;
    private final PrivateBinProperties properties;
    private final Clock clock = Clock.systemUTC();

    ReadEncryptedPasteService(
            ReadPasteService reads,
            RevealPasteService reveals,
            LargeFileLinks largeFiles,
            JsonMapper json,
            PrivateBinProperties properties) {
        this.reads = reads;
        this.reveals = reveals;
        this.largeFiles = largeFiles;
        this.json = json;
        this.properties = properties;
    }

    /**
     * @param shortCode well-formed
     * @throws PasteNotFoundException         unknown, expired, deleted, burnt, its upload failed, or not a PrivateBin
     *                                        paste
     * @throws PasteTakenDownException        when an operator took it down
     * @throws PasteStillStoringException     when it is still being stored after the wait
     * @throws DependencyUnavailableException when the database or S3 cannot be reached (nothing was burnt)
     * @throws PasteInconsistencyException    when its object is missing or not what the row says
     */
    EncryptedPaste read(String shortCode) {
        return switch (awaitStored(shortCode)) {
            case PasteLookup.Absent ignored -> throw notFound(shortCode);
            case PasteLookup.Pending ignored -> throw stillStoring();
            case PasteLookup.Readable readable -> shown(readable.paste(), reads.content(readable.paste()));
            case PasteLookup.ReadOnce readOnce -> burn(readOnce.paste());
        };
    }

    /**
     * Checks the content is an envelope before burning it: a read-once paste of another route stays unread. Its
     * object may be gone already, removed by a concurrent read's burn: the reveal then tells that from a fault.
     */
    private EncryptedPaste burn(Paste paste) {
        if (largeFiles.isLarge(paste)) {
            // files, never an envelope: a large paste is revealed on its own route only
            throw notFound(paste.shortCode());
        }
        reads.contentIfStored(paste).ifPresent(content -> shown(paste, content));
        return switch (reveals.reveal(paste.shortCode())) {
            case Reveal.Revealed revealed -> {
                LOG.info("PrivateBin paste {} burnt after reading", paste.shortCode());
                yield shown(revealed.paste(), revealed.content());
            }
            case Reveal.Pending ignored -> throw stillStoring();
            // refused above: a large paste's row never stops naming its folder of files
            case Reveal.RevealedFiles ignored ->
                throw new IllegalStateException(
                        "large paste " + paste.shortCode() + " revealed through PrivateBin's read");
        };
    }

    private EncryptedPaste shown(Paste paste, byte[] content) {
        PasteEnvelope.Stored stored = PasteEnvelope.read(content, json).orElseThrow(() -> notFound(paste.shortCode()));
        return new EncryptedPaste(paste.shortCode(), stored.adata(), stored.ct(), timeToLive(paste.expiresAt()));
    }

    /**
     * The row, read again while it is IN_PROGRESS, until the paste is {@link PrivateBinProperties#pendingWait()} old:
     * an upload finishes within a second or two of its create, and one that has not by then is retrying or held
     * (S3 down), which no read's wait would see through, so an older paste is answered at once.
     */
    private PasteLookup awaitStored(String shortCode) {
        PasteLookup lookup = reads.find(shortCode);
        if (!(lookup instanceof PasteLookup.Pending pending)) {
            return lookup;
        }
        Instant deadline = pending.paste().createdAt().plus(properties.pendingWait());
        while (lookup instanceof PasteLookup.Pending && clock.instant().isBefore(deadline)) {
            try {
                Thread.sleep(properties.pendingPoll());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            lookup = reads.find(shortCode);
        }
        return lookup;
    }

    @Nullable
    private Long timeToLive(@Nullable Instant expiresAt) {
        return expiresAt == null
                ? null
                : Math.max(0, Duration.between(clock.instant(), expiresAt).toSeconds());
    }

    private static PasteNotFoundException notFound(String shortCode) {
        return new PasteNotFoundException("No PrivateBin paste " + shortCode);
    }

    private static PasteStillStoringException stillStoring() {
        return new PasteStillStoringException("Document is still being stored. Try again in a few seconds.");
    }
}
