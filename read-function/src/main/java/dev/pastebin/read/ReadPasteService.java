package dev.pastebin.read;

import dev.pastebin.core.breaker.S3CircuitBreaker;
import dev.pastebin.core.failure.DependencyCalls;
import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.http.ApiProperties;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.storage.ContentLocation;
import dev.pastebin.core.storage.PasteContentStore;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;

import static dev.pastebin.core.failure.Dependency.DATABASE;
import static dev.pastebin.core.failure.Dependency.STORAGE;

/**
 * Reading a paste (docs/design.md, "States"): the row decides (PROCESSED, IN_PROGRESS, FAILED/unknown); only
 * a PROCESSED paste's content is fetched from S3, from the location recorded on its row.
 */
@Singleton
public class ReadPasteService {

    private static final Logger LOG = LoggerFactory.getLogger(ReadPasteService.class);

    private final PasteRepository repository;
    private final PasteContentStore contentStore;
    private final DependencyCalls dependencies;
    private final S3CircuitBreaker breaker;
    private final ApiProperties apiProperties;
    private final Clock clock = Clock.systemUTC();

    public ReadPasteService(PasteRepository repository, PasteContentStore contentStore, DependencyCalls dependencies,
                            S3CircuitBreaker breaker, ApiProperties apiProperties) {
        this.repository = repository;
        this.contentStore = contentStore;
        this.dependencies = dependencies;
        this.breaker = breaker;
        this.apiProperties = apiProperties;
    }

    /** @throws DependencyUnavailableException when the database cannot be reached */
    public PasteLookup find(String shortCode) {
        Paste paste = dependencies.call(DATABASE, () -> repository.findById(shortCode)).orElse(null);
        if (paste == null) {
            return new PasteLookup.Absent();
        }
        return switch (paste.status()) {
            case PROCESSED -> new PasteLookup.Readable(paste);
            case IN_PROGRESS -> new PasteLookup.Pending(paste, retryAfterSeconds());
            case FAILED -> new PasteLookup.Absent();
        };
    }

    /**
     * The usual wait for a paste being uploaded; while the S3 breaker is open no upload can finish before its
     * next probe, so never sooner than that (docs/design.md, "Circuit breaker").
     */
    private int retryAfterSeconds() {
        int usual = apiProperties.inProgressRetryAfterSeconds();
        try {
            return breaker.nextProbe()
                    .map(probe -> (int) Math.max(usual, Math.ceilDiv(Duration.between(clock.instant(), probe).toMillis(), 1000)))
                    .orElse(usual);
        } catch (RuntimeException e) {
            // The row was just read, so this is a blip: the usual answer is still true, only less precise.
            LOG.warn("could not read the S3 breaker's state: {}", e.toString());
            return usual;
        }
    }

    /**
     * The exact bytes of a PROCESSED paste, checked against the row's hash.
     *
     * @throws DependencyUnavailableException when S3 cannot be reached or answers 5xx / throttles
     * @throws PasteInconsistencyException    when the object is missing or is not what the row says
     */
    public byte[] content(Paste paste) {
        ContentLocation location = ContentLocation.parse(paste.s3Location()).orElseThrow(() -> {
            LOG.error("inconsistency: paste {} is PROCESSED without a valid s3 location", paste.shortCode());
            return new PasteInconsistencyException("no location for " + paste.shortCode());
        });
        byte[] content = dependencies.call(STORAGE, () -> contentStore.get(location)).orElseThrow(() -> {
            LOG.error("inconsistency: paste {} is PROCESSED but its object {} is missing", paste.shortCode(), location);
            return new PasteInconsistencyException("object missing for " + paste.shortCode());
        });
        if (!ContentHash.sha256Hex(content).equals(paste.contentSha256())) {
            LOG.error("inconsistency: paste {} object {} does not match the row's SHA-256 ({} bytes stored, {} expected)",
                    paste.shortCode(), location, content.length, paste.sizeBytes());
            throw new PasteInconsistencyException("content mismatch for " + paste.shortCode());
        }
        return content;
    }
}
