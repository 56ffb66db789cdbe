package dev.pastebin.api.create;

import static dev.pastebin.core.failure.Dependency.DATABASE;

import dev.pastebin.core.failure.DependencyCalls;
import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.logging.LogContext;
import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import dev.pastebin.core.moderation.ContentBlocklist;
import dev.pastebin.core.paste.ContentBlockedException;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.DeleteTokens;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteFile;
import dev.pastebin.core.paste.PasteFileRepository;
import dev.pastebin.core.paste.PasteMetadata;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.storage.LargeFileStore;
import io.micronaut.context.annotation.Requires;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Creating a large paste (docs/design.md, "Large files: straight to S3"): the row IN_PROGRESS and one
 * {@code paste_files} row per declared file, in one transaction, then a pre-signed PUT per file, answered to the
 * client. No job is sent: S3's notification of each arriving file is the job. The create never calls S3 (pre-signing
 * is local). Who may create, and the blocklist, are checked as for a small paste ({@link CreatePasteService}).
 */
@Singleton
@Requires(classes = S3Client.class)
public class CreateLargePasteService {

    private static final Logger LOG = LoggerFactory.getLogger(CreateLargePasteService.class);

    private final PasteRepository pastes;
    private final PasteFileRepository files;
    private final TransactionOperations<Connection> transactions;
    private final ShortCodes shortCodes;
    private final DeleteTokens deleteTokens;
    private final DependencyCalls dependencies;
    private final FailureClassifier classifier;
    private final ContentBlocklist blocklist;
    private final CreateAccess access;
    private final LargeFileStore store;
    private final Metrics metrics;
    private final Clock clock = Clock.systemUTC();

    public CreateLargePasteService(
            PasteRepository pastes,
            PasteFileRepository files,
            TransactionOperations<Connection> transactions,
            ShortCodes shortCodes,
            DeleteTokens deleteTokens,
            DependencyCalls dependencies,
            FailureClassifier classifier,
            ContentBlocklist blocklist,
            CreateAccess access,
            LargeFileStore store,
            Metrics metrics) {
        this.pastes = pastes;
        this.files = files;
        this.transactions = transactions;
        this.shortCodes = shortCodes;
        this.deleteTokens = deleteTokens;
        this.dependencies = dependencies;
        this.classifier = classifier;
        this.blocklist = blocklist;
        this.access = access;
        this.store = store;
        this.metrics = metrics;
    }

    /** What a file is served as when its create named no content type. */
    public static final String DEFAULT_CONTENT_TYPE = "application/octet-stream";

    /**
     * One declared file, checked by the caller against the limits.
     *
     * @param sha256      lower-case hex; null when the client cannot declare it ({@code curl -T}): the upload worker
     *                    hashes what arrived
     * @param contentType signed into the upload, so the client must send it; null when the client sends none
     *                    ({@code curl -T}): not signed, and the file is served as {@link #DEFAULT_CONTENT_TYPE}
     */
    public record DeclaredFile(
            String name,
            long sizeBytes,
            @Nullable String sha256,
            @Nullable String contentType) {}

    /** The create as the controller read it: at least one file, within the limits. */
    public record LargePasteRequest(List<DeclaredFile> files, PasteOptions options) {}

    /** What the client is told: the paste, as a small create's, and where to send each file's bytes. */
    public record LargeCreation(CreatePasteService.Creation paste, List<LargeFileStore.PresignedRequest> uploads) {}

    /**
     * @throws ContentBlockedException when a declared SHA-256 is on the operator's blocklist
     * @see CreatePasteService#create for the access and dependency failures, which are the same
     */
    public LargeCreation create(LargePasteRequest request, @Nullable String userId, CreateCredential credential) {
        ApiKeyLookup.Grant grant = access.admit(credential).orElse(null);
        long total = request.files().stream().mapToLong(DeclaredFile::sizeBytes).sum();
        CreateAccess.Claim claim = grant == null ? null : access.claim(grant, Math.toIntExact(total));
        for (DeclaredFile file : request.files()) {
            if (file.sha256() != null && dependencies.call(DATABASE, () -> blocklist.existsById(file.sha256()))) {
                metrics.put(Metric.BLOCKED_CREATES, 1);
                throw new ContentBlockedException("This content was blocked by the operator");
            }
        }
        PasteOptions options = request.options();
        DeleteTokens.Issued token = deleteTokens.issue();
        Instant expiresAt = options.expiresAt(clock.instant());
        String manifest = manifestSha256(request.files());
        for (int attempt = 1; attempt <= CreatePasteService.MAX_INSERT_ATTEMPTS; attempt++) {
            Paste paste = Paste.inProgress(
                    shortCodes.next(),
                    userId,
                    manifest,
                    Math.toIntExact(total),
                    token.sha256(),
                    expiresAt,
                    options.readOnce(),
                    PasteMetadata.NONE);
            List<PasteFile> rows = new ArrayList<>();
            for (int i = 0; i < request.files().size(); i++) {
                DeclaredFile f = request.files().get(i);
                rows.add(PasteFile.staged(
                        paste.shortCode(),
                        i,
                        f.name(),
                        f.sizeBytes(),
                        f.sha256() == null ? PasteFile.UNDECLARED_SHA256 : f.sha256(),
                        f.contentType() == null ? DEFAULT_CONTENT_TYPE : f.contentType()));
            }
            try {
                dependencies.call(DATABASE, () -> insert(paste, rows, claim));
            } catch (RuntimeException e) {
                if (!classifier.isDuplicateKey(e)) {
                    throw e;
                }
                LOG.warn("short code collision on attempt {}; drawing another", attempt);
                continue;
            }
            LogContext.forPaste(paste.shortCode());
            List<LargeFileStore.PresignedRequest> uploads = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                DeclaredFile f = request.files().get(i);
                uploads.add(store.presignUpload(rows.get(i).fileId(), f.sizeBytes(), f.sha256(), f.contentType()));
            }
            LOG.info(
                    "large paste {} created IN_PROGRESS ({} files, {} bytes declared)",
                    paste.shortCode(),
                    rows.size(),
                    total);
            return new LargeCreation(
                    new CreatePasteService.Creation(
                            paste.shortCode(), paste.status(), token.token(), expiresAt, options.readOnce(), false),
                    uploads);
        }
        throw new IllegalStateException(
                "no free short code after " + CreatePasteService.MAX_INSERT_ATTEMPTS + " attempts");
    }

    private Void insert(Paste paste, List<PasteFile> rows, @Nullable CreateAccess.Claim claim) {
        transactions.executeWrite(status -> {
            pastes.save(paste);
            rows.forEach(files::save);
            if (claim != null) {
                access.consume(status.getConnection(), claim, paste.shortCode());
            }
            return null;
        });
        return null;
    }

    /**
     * The paste's hash: of its manifest (each file's SHA-256, size and name, a line each, in order), so a paste's
     * ETag and its row's checks work as for a small paste's content.
     */
    static String manifestSha256(List<DeclaredFile> files) {
        StringBuilder manifest = new StringBuilder();
        for (DeclaredFile f : files) {
            manifest.append(f.sha256() == null ? PasteFile.UNDECLARED_SHA256 : f.sha256())
                    .append(' ')
                    .append(f.sizeBytes())
                    .append(' ')
                    .append(f.name())
                    .append('\n');
        }
        return ContentHash.sha256Hex(manifest.toString().getBytes(StandardCharsets.UTF_8));
    }
}
