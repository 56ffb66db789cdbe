package dev.pastebin.moderation;

import dev.pastebin.core.metrics.Metric;
import dev.pastebin.core.metrics.Metrics;
import dev.pastebin.core.moderation.AuditEntry;
import dev.pastebin.core.moderation.ContentBlocklist;
import dev.pastebin.core.moderation.ModerationAction;
import dev.pastebin.core.moderation.ModerationAudit;
import dev.pastebin.core.moderation.ModerationOutbox;
import dev.pastebin.core.moderation.OutboxMessage;
import dev.pastebin.core.moderation.Takedown;
import dev.pastebin.core.moderation.TakedownRepository;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PastePaths;
import dev.pastebin.core.paste.PasteRefusal;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.storage.ContentLocation;
import dev.pastebin.core.storage.LargeFileStore;
import dev.pastebin.core.storage.PasteContentStore;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator's commands (docs/operating.md, "Takedown runbook"). A takedown, in one database transaction: lock
 * the paste's row whatever its state (IN_PROGRESS, PROCESSED, read-once), remove it, leave the tombstone that makes
 * every read route answer 451, audit it with the content's hash and size from the row, and blocklist the hash
 * (unless asked not to). Once that has committed, one {@code invalidate} message with every edge path goes to the
 * outbox, and the content's object is deleted, outside the transaction: S3 refuses exactly when pastes wait
 * IN_PROGRESS (an outage), and a takedown must not depend on it. If S3 refuses, a {@code delete-objects} message
 * hands the delete to the outbox function, which retries it until S3 accepts ({@code pending}); if the outbox
 * refuses too, the answer says the deletion {@code failed}, and repeating the command retries it. A takedown of a
 * code that is already taken down answers so, sends the invalidation again and retries the delete of the code's
 * object (a lost invalidation or a failed delete heals by repeating the command); a code with neither a row nor a
 * tombstone answers that there was nothing to take down, and leaves no tombstone: an unknown code must not become
 * a 451 that says something was there.
 *
 * <p>A takedown that blocklists the hash takes down, in the same transaction, every other code whose row holds the
 * same content (at most {@link #MAX_COPIES}; repeating the command takes down the rest): the rows are locked in the
 * order of their codes, and each gets its removal, tombstone and audit entry, then its own invalidation and object
 * deletion after the commit; the answer lists them ({@code copies}). With {@code onlyThisCode}, or when the content
 * stays allowed ({@code block} false), only the code is taken down and the answer lists the copies left
 * ({@code copiesLeft}). The match is the exact SHA-256 of the stored bytes: content changed by one byte, or a
 * PrivateBin paste encrypted again (each encryption differs), is no copy. {@code copies} lists the codes holding a
 * content; {@code block} lists them too, and leaves them readable.
 *
 * <p>A takedown of a paste still being stored wins: its row is gone, so the upload worker's guarded move to
 * PROCESSED changes nothing and it removes the object its PUT may have written (PasteUploader's lost race), and a
 * delivery that comes later finds no row, stores nothing and removes the object (no PUT).
 */
@Singleton
class ModerationService {

    static final int MAX_REASON_LENGTH = 1000;
    static final int MAX_ACTOR_LENGTH = 512;
    /** How much of a failure's message a note quotes. */
    static final int MAX_CAUSE_LENGTH = 200;
    /** The most codes holding one content a command takes down or lists at once. */
    static final int MAX_COPIES = 1000;
    /**
     * The most blocklist entries one answer holds, and the size of a page unless the command asks for fewer. A
     * Lambda response is at most 6 MB: an entry the commands wrote has a reason of at most {@value #MAX_REASON_LENGTH}
     * and an author of at most {@value #MAX_ACTOR_LENGTH} characters, at most 6 bytes each in JSON (an escaped
     * control character), so about 9.3 KB with its hash and time, and 500 of them about 4.7 MB.
     */
    static final int MAX_BLOCKLIST_PAGE = 500;

    private static final Pattern SHA256 = Pattern.compile("[0-9a-f]{64}");
    private static final Logger LOG = LoggerFactory.getLogger(ModerationService.class);

    private final PasteRepository pastes;
    private final PasteOwners owners;
    private final TakedownRepository takedowns;
    private final ContentBlocklist blocklist;
    private final ModerationAudit audit;
    private final PasteContentStore contentStore;
    private final LargeFileStore largeFiles;
    private final TransactionOperations<Connection> transactions;
    private final ShortCodes shortCodes;
    private final ModerationOutbox outbox;
    private final Metrics metrics;

    ModerationService(
            PasteRepository pastes,
            PasteOwners owners,
            TakedownRepository takedowns,
            ContentBlocklist blocklist,
            ModerationAudit audit,
            PasteContentStore contentStore,
            LargeFileStore largeFiles,
            TransactionOperations<Connection> transactions,
            ShortCodes shortCodes,
            ModerationOutbox outbox,
            Metrics metrics) {
        this.pastes = pastes;
        this.owners = owners;
        this.takedowns = takedowns;
        this.blocklist = blocklist;
        this.audit = audit;
        this.contentStore = contentStore;
        this.largeFiles = largeFiles;
        this.transactions = transactions;
        this.shortCodes = shortCodes;
        this.outbox = outbox;
        this.metrics = metrics;
    }

    /** A bad command: answered as {@code refused} with this message. */
    static final class BadCommandException extends RuntimeException {
        BadCommandException(String message) {
            super(message, null, false, false);
        }
    }

    ModerationAnswer handle(@Nullable ModerationCommand command) {
        try {
            if (command == null || command.action() == null) {
                throw new BadCommandException(
                        "no action: say takedown, copies, block, unblock, blocklist, create-key, list-keys or revoke-key");
            }
            return switch (command.action()) {
                case "takedown" -> takedown(command);
                case "block" -> block(command);
                case "unblock" -> unblock(command);
                case "blocklist" -> list(command);
                case "copies" -> copies(command);
                default ->
                    throw new BadCommandException(
                            "unknown action '" + command.action()
                                    + "': say takedown, copies, block, unblock, blocklist, create-key, list-keys or revoke-key");
            };
        } catch (BadCommandException | PasteRefusal e) {
            LOG.info("moderation command refused: {}", e.getMessage());
            return ModerationAnswer.refused(e.getMessage());
        }
    }

    private ModerationAnswer takedown(ModerationCommand command) {
        if (command.code() == null) {
            throw new BadCommandException("takedown needs a code");
        }
        String code = shortCodes.requireWellFormed(command.code());
        String reason = required("reason", command.reason(), MAX_REASON_LENGTH);
        String actor = required("requestedBy", command.requestedBy(), MAX_ACTOR_LENGTH);
        boolean block = command.block() == null || command.block();
        // Blocking the content takes down every code holding it (review finding M3), unless the operator asks for
        // this code alone; content that stays allowed is taken down code by code.
        boolean everyCopy = block && !Boolean.TRUE.equals(command.onlyThisCode());
        Removals removals = transactions.executeWrite(status -> {
            // The content's hash: the row's (a row's hash never changes, so it is read unlocked), else the tombstone's.
            Optional<String> sha256 = pastes.findById(code)
                    .map(Paste::contentSha256)
                    .or(() -> takedowns.findById(code).map(Takedown::contentSha256));
            List<Paste> locked = new ArrayList<>();
            boolean truncated = false;
            if (everyCopy && sha256.isPresent()) {
                List<Paste> holding = pastes.findByContentSha256ForUpdate(sha256.get(), MAX_COPIES + 1);
                truncated = holding.size() > MAX_COPIES;
                locked.addAll(truncated ? holding.subList(0, MAX_COPIES) : holding);
            }
            Optional<Paste> own =
                    locked.stream().filter(p -> p.shortCode().equals(code)).findFirst();
            if (own.isEmpty()) {
                own = pastes.findByIdForUpdate(code);
                own.ifPresent(locked::add);
            }
            List<Removal> copies = new ArrayList<>();
            Optional<Removal> ownRemoval = Optional.empty();
            for (Paste paste : locked) {
                // read before the row goes: the audit names whose paste was taken down
                String owner = owners.findOwnerLabel(paste.shortCode()).orElse(null);
                pastes.remove(paste.shortCode());
                takedowns.save(Takedown.of(paste.shortCode(), reason, actor, paste.contentSha256(), paste.sizeBytes()));
                AuditEntry entry = audit.save(AuditEntry.takedown(
                        actor, reason, paste.shortCode(), paste.contentSha256(), paste.sizeBytes(), owner));
                Removal removal = new Removal(paste, String.valueOf(entry.id()));
                if (paste.shortCode().equals(code)) {
                    ownRemoval = Optional.of(removal);
                } else {
                    copies.add(removal);
                }
            }
            if (block && !locked.isEmpty()) {
                Paste paste = locked.getFirst();
                if (blocklist.add(paste.contentSha256(), reason, actor) == 1) {
                    audit.save(AuditEntry.of(
                            ModerationAction.BLOCK, actor, reason, code, paste.contentSha256(), paste.sizeBytes()));
                }
            }
            List<String> left = List.of();
            if (!everyCopy && sha256.isPresent()) {
                left = pastes.findCodesByContentSha256(sha256.get(), MAX_COPIES + 1);
                truncated = left.size() > MAX_COPIES;
                left = truncated ? left.subList(0, MAX_COPIES) : left;
            }
            return new Removals(ownRemoval, copies, List.copyOf(left), truncated);
        });
        // Committed: every read route answers 451 for each code taken down and no upload delivery stores the
        // content, whatever S3 does next. Then each code's invalidation and its object's deletion.
        List<String> copyCodes =
                removals.copies().stream().map(r -> r.paste().shortCode()).toList();
        List<String> copyNotes = new ArrayList<>();
        String worstCopyDeletion = null;
        for (Removal copy : removals.copies()) {
            Paste paste = copy.paste();
            String copyCode = paste.shortCode();
            metrics.put(Metric.TAKEDOWNS, 1);
            String reference = "takedown:" + copy.auditId();
            Invalidation invalidation = invalidate(copyCode, PastePaths.edgePaths(copyCode), reference);
            ObjectDeletion deletion = deleteObjects(copyCode, objectsOf(copyCode, paste.s3Location()), reference);
            worstCopyDeletion = worse(worstCopyDeletion, deletion.state());
            String copyNote = note(null, invalidation, deletion);
            if (copyNote != null) {
                copyNotes.add("copy " + copyCode + " (repeat `takedown " + copyCode + "` for it): " + copyNote);
            }
            LOG.info(
                    "paste {} taken down as a copy of {} ({}, {} bytes, sha256 {}); invalidation {}; object {}",
                    copyCode,
                    code,
                    paste.status(),
                    paste.sizeBytes(),
                    paste.contentSha256(),
                    invalidation.reference() != null ? invalidation.reference() : "not sent",
                    deletion.state());
        }
        String copiesNote = copiesNote(everyCopy, removals, copyCodes, copyNotes);
        List<String> copies = everyCopy ? copyCodes : null;
        List<String> copiesLeft = everyCopy ? null : removals.left();
        Boolean truncated = removals.truncated() ? true : null;
        if (removals.own().isPresent()) {
            Paste paste = removals.own().get().paste();
            metrics.put(Metric.TAKEDOWNS, 1);
            String reference = "takedown:" + removals.own().get().auditId();
            List<String> paths = PastePaths.edgePaths(code);
            Invalidation invalidation = invalidate(code, paths, reference);
            ObjectDeletion deletion = deleteObjects(code, objectsOf(code, paste.s3Location()), reference);
            LOG.info(
                    "paste {} taken down ({} {}, {} bytes, sha256 {}, blocked {}, {} copies too); invalidation {};"
                            + " object {}",
                    code,
                    paste.status(),
                    paste.readOnce() ? "read-once" : "",
                    paste.sizeBytes(),
                    paste.contentSha256(),
                    block,
                    copyCodes.size(),
                    invalidation.reference() != null ? invalidation.reference() : "not sent",
                    deletion.state());
            return new ModerationAnswer(
                    "taken-down",
                    code,
                    true,
                    paste.status().name(),
                    worse(worstCopyDeletion, deletion.state()),
                    paste.contentSha256(),
                    paste.sizeBytes(),
                    block || blocklist.existsById(paste.contentSha256()),
                    invalidation.reference(),
                    paths,
                    copies,
                    copiesLeft,
                    truncated,
                    null,
                    null,
                    note(null, invalidation, deletion, copiesNote),
                    null);
        }
        Optional<Takedown> earlier = takedowns.findById(code);
        if (earlier.isPresent()) {
            Takedown tombstone = earlier.get();
            // CloudFront answers a caller reference it has seen with that earlier invalidation and invalidates
            // nothing: every repeat has a reference of its own
            String reference = "takedown:" + code + ":again:" + UUID.randomUUID();
            List<String> paths = PastePaths.edgePaths(code);
            Invalidation invalidation = invalidate(code, paths, reference);
            // The tombstone records no location: the code's key in the configured bucket, where pastes are stored.
            ObjectDeletion deletion = deleteObjects(code, objectsOf(code, null), reference);
            LOG.info(
                    "paste {} was already taken down ({} copies taken down now); invalidation {}; object {}",
                    code,
                    copyCodes.size(),
                    invalidation.reference() != null ? invalidation.reference() : "not sent",
                    deletion.state());
            return new ModerationAnswer(
                    "already-taken-down",
                    code,
                    false,
                    null,
                    worse(worstCopyDeletion, deletion.state()),
                    tombstone.contentSha256(),
                    tombstone.contentSize(),
                    blocklist.existsById(tombstone.contentSha256()),
                    invalidation.reference(),
                    paths,
                    copies,
                    copiesLeft,
                    truncated,
                    null,
                    null,
                    note(
                            "already taken down at " + tombstone.takenDownAt() + " by " + tombstone.requestedBy()
                                    + "; the edge invalidation and the object's deletion were tried again",
                            invalidation,
                            deletion,
                            copiesNote),
                    null);
        }
        return ModerationAnswer.onCode(
                "nothing-to-take-down",
                code,
                "no paste has this code (never created, expired, deleted or read); no tombstone was left");
    }

    /** What the answer says of the other codes holding the content, or null when there were none. */
    private static @Nullable String copiesNote(
            boolean everyCopy, Removals removals, List<String> copyCodes, List<String> copyNotes) {
        List<String> notes = new ArrayList<>();
        if (everyCopy && !copyCodes.isEmpty()) {
            notes.add(copyCodes.size() + " other code(s) holding the same content were taken down too (copies)");
        }
        if (!everyCopy && !removals.left().isEmpty()) {
            notes.add(removals.left().size() + " other code(s) holding the same content stay readable (copiesLeft):"
                    + " take them down with `takedown`");
        }
        if (removals.truncated()) {
            notes.add("more than " + MAX_COPIES + " codes hold this content: "
                    + (everyCopy
                            ? "repeat the command to take down the rest"
                            : "the first " + MAX_COPIES + " are listed"));
        }
        notes.addAll(copyNotes);
        return notes.isEmpty() ? null : String.join("; ", notes);
    }

    /** The worse of two object deletions: failed, then pending, then deleted. */
    private static @Nullable String worse(@Nullable String a, @Nullable String b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        for (String state : List.of(ModerationAnswer.FAILED, ModerationAnswer.PENDING)) {
            if (a.equals(state) || b.equals(state)) {
                return state;
            }
        }
        return a;
    }

    /**
     * Every object a taken-down code may have: its content (the configured key, and the row's recorded location) and
     * everything in a large paste's folders, staged or verified (found by listing, not by the file rows: a repeat's
     * tombstone has none).
     */
    private Set<ContentLocation> objectsOf(String code, @Nullable String recordedLocation) {
        Set<ContentLocation> objects = new LinkedHashSet<>(contentStore.locationsOf(code, recordedLocation));
        objects.addAll(largeFiles.foldersOf(code));
        return objects;
    }

    /** The edge invalidation, sent to the outbox: its reference, or why it could not be sent. */
    private Invalidation invalidate(String code, List<String> paths, String reference) {
        try {
            outbox.send(OutboxMessage.invalidate(paths, reference));
            return new Invalidation(reference, null);
        } catch (RuntimeException e) {
            LOG.error(
                    "paste {}: the edge invalidation {} could not be sent; repeating the takedown sends it",
                    code,
                    reference,
                    e);
            return new Invalidation(
                    null,
                    "the edge invalidation could not be sent to the moderation outbox (" + cause(e)
                            + "): repeat the command to send it");
        }
    }

    /**
     * Deletes the objects directly; if S3 refuses, hands the delete to the outbox function ({@code pending}); if the
     * outbox refuses too, the deletion {@code failed} and repeating the command retries it.
     */
    private ObjectDeletion deleteObjects(String code, Set<ContentLocation> objects, String reference) {
        RuntimeException refused;
        try {
            contentStore.deleteAll(objects);
            return new ObjectDeletion(ModerationAnswer.DELETED, null);
        } catch (RuntimeException e) {
            refused = e;
        }
        LOG.warn(
                "paste {}: S3 refused the delete of {} ({}); the moderation outbox deletes it",
                code,
                objects,
                refused.toString());
        try {
            outbox.send(OutboxMessage.deleteObjects(objects, reference));
        } catch (RuntimeException unsent) {
            LOG.error(
                    "paste {}: the delete of {} could not be handed to the moderation outbox either; repeating the"
                            + " takedown retries it",
                    code,
                    objects,
                    unsent);
            return new ObjectDeletion(
                    ModerationAnswer.FAILED,
                    "the object's deletion failed: S3 refused it (" + cause(refused)
                            + ") and the moderation outbox could not take it (" + cause(unsent)
                            + "): repeat the command to retry it");
        }
        return new ObjectDeletion(
                ModerationAnswer.PENDING,
                "the object's deletion is pending: S3 refused it (" + cause(refused) + "); the moderation outbox"
                        + " deletes it (" + reference + "), retrying until S3 accepts");
    }

    /** The notes of a takedown's answer, or null when there is nothing to say. */
    private static @Nullable String note(@Nullable String first, Invalidation invalidation, ObjectDeletion deletion) {
        return note(first, invalidation, deletion, null);
    }

    private static @Nullable String note(
            @Nullable String first, Invalidation invalidation, ObjectDeletion deletion, @Nullable String last) {
        List<String> notes = Stream.of(first, invalidation.note(), deletion.note(), last)
                .filter(Objects::nonNull)
                .toList();
        return notes.isEmpty() ? null : String.join("; ", notes);
    }

    private static String cause(RuntimeException e) {
        String cause = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        return cause.length() <= MAX_CAUSE_LENGTH ? cause : cause.substring(0, MAX_CAUSE_LENGTH) + "...";
    }

    private ModerationAnswer block(ModerationCommand command) {
        String sha256 = sha256(command.sha256());
        String reason = required("reason", command.reason(), MAX_REASON_LENGTH);
        String actor = required("requestedBy", command.requestedBy(), MAX_ACTOR_LENGTH);
        boolean added = transactions.executeWrite(status -> {
            if (blocklist.add(sha256, reason, actor) == 0) {
                return false;
            }
            audit.save(AuditEntry.of(ModerationAction.BLOCK, actor, reason, null, sha256, null));
            return true;
        });
        LOG.info("content {} {}", sha256, added ? "blocklisted" : "was already blocklisted");
        // The codes already holding the content stay readable: a block refuses new copies only.
        List<String> codes = pastes.findCodesByContentSha256(sha256, MAX_COPIES + 1);
        boolean truncated = codes.size() > MAX_COPIES;
        return ModerationAnswer.onHash(
                added ? "blocked" : "already-blocked",
                sha256,
                truncated ? codes.subList(0, MAX_COPIES) : codes,
                truncated ? true : null,
                codes.isEmpty()
                        ? null
                        : (truncated ? "more than " + MAX_COPIES : String.valueOf(codes.size()))
                                + " code(s) already hold this content and stay readable (copies): a block refuses"
                                + " new copies only; take them down with `takedown` (one takedown takes down every"
                                + " code holding the content)");
    }

    /** The codes holding a content: given by its SHA-256, or by a code (its row's hash, else its tombstone's). */
    private ModerationAnswer copies(ModerationCommand command) {
        String sha256;
        String code = null;
        if (command.sha256() != null) {
            sha256 = sha256(command.sha256());
        } else if (command.code() != null) {
            code = shortCodes.requireWellFormed(command.code());
            String given = code;
            Optional<String> known = pastes.findById(given)
                    .map(Paste::contentSha256)
                    .or(() -> takedowns.findById(given).map(Takedown::contentSha256));
            if (known.isEmpty()) {
                return ModerationAnswer.onCode(
                        "unknown-code",
                        code,
                        "no paste and no tombstone has this code: give the content's SHA-256 instead");
            }
            sha256 = known.get();
        } else {
            throw new BadCommandException("copies needs a code or a sha256");
        }
        List<String> codes = pastes.findCodesByContentSha256(sha256, MAX_COPIES + 1);
        boolean truncated = codes.size() > MAX_COPIES;
        return new ModerationAnswer(
                "copies",
                code,
                null,
                null,
                null,
                sha256,
                null,
                blocklist.existsById(sha256),
                null,
                null,
                truncated ? codes.subList(0, MAX_COPIES) : codes,
                null,
                truncated ? true : null,
                null,
                null,
                truncated
                        ? "more than " + MAX_COPIES + " codes hold this content: the first " + MAX_COPIES
                                + " are listed"
                        : codes.size() + " code(s) hold this content (an exact SHA-256 match)",
                null);
    }

    private ModerationAnswer unblock(ModerationCommand command) {
        String sha256 = sha256(command.sha256());
        String reason = required("reason", command.reason(), MAX_REASON_LENGTH);
        String actor = required("requestedBy", command.requestedBy(), MAX_ACTOR_LENGTH);
        boolean removed = transactions.executeWrite(status -> {
            if (blocklist.remove(sha256) == 0) {
                return false;
            }
            audit.save(AuditEntry.of(ModerationAction.UNBLOCK, actor, reason, null, sha256, null));
            return true;
        });
        LOG.info("content {} {}", sha256, removed ? "removed from the blocklist" : "was not blocklisted");
        return ModerationAnswer.onHash(removed ? "unblocked" : "not-blocked", sha256);
    }

    /**
     * One page of the blocklist: the whole of a long one would not fit a Lambda response. One entry more than the
     * page is read, so that the answer says whether another page follows without a query of its own.
     */
    private ModerationAnswer list(ModerationCommand command) {
        String after = command.after() == null ? "" : command.after().trim().toLowerCase(Locale.ROOT);
        if (command.after() != null && !SHA256.matcher(after).matches()) {
            throw new BadCommandException("after must be 64 hexadecimal digits (the previous page's nextAfter)");
        }
        int limit = command.limit() == null ? MAX_BLOCKLIST_PAGE : command.limit();
        if (limit < 1 || limit > MAX_BLOCKLIST_PAGE) {
            throw new BadCommandException("limit must be 1 to " + MAX_BLOCKLIST_PAGE + " (entries in one page)");
        }
        List<ModerationAnswer.Entry> entries = blocklist.listAfter(after, limit + 1).stream()
                .map(e -> new ModerationAnswer.Entry(e.sha256(), e.reason(), e.addedBy(), String.valueOf(e.addedAt())))
                .toList();
        if (entries.size() <= limit) {
            return ModerationAnswer.listed(entries, null);
        }
        List<ModerationAnswer.Entry> page = entries.subList(0, limit);
        return ModerationAnswer.listed(page, page.getLast().sha256());
    }

    private static String sha256(@Nullable String given) {
        String sha256 = given == null ? "" : given.trim().toLowerCase(Locale.ROOT);
        if (!SHA256.matcher(sha256).matches()) {
            throw new BadCommandException("sha256 must be 64 hexadecimal digits (the content's SHA-256)");
        }
        return sha256;
    }

    private static String required(String name, @Nullable String value, int maxLength) {
        if (value == null || value.isBlank()) {
            throw new BadCommandException(name + " is required");
        }
        if (value.length() > maxLength) {
            throw new BadCommandException(name + " is longer than " + maxLength + " characters");
        }
        return value.strip();
    }

    private record Removal(Paste paste, String auditId) {}

    /**
     * What a takedown's transaction removed: the code's own row (absent when it was already gone), the other codes
     * holding the same content, or, for a takedown of this code alone, those it left; truncated when more codes held
     * the content than {@link #MAX_COPIES}.
     */
    private record Removals(Optional<Removal> own, List<Removal> copies, List<String> left, boolean truncated) {}

    /** The invalidation's reference when it was sent, else a note on why not. */
    private record Invalidation(
            @Nullable String reference, @Nullable String note) {}

    /** {@link ModerationAnswer#objectDeletion()}'s value, and a note unless the object was deleted. */
    private record ObjectDeletion(String state, @Nullable String note) {}
}
