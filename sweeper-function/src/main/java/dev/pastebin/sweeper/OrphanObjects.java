package dev.pastebin.sweeper;

import dev.pastebin.core.config.StorageProperties;
import dev.pastebin.core.lambda.Deadline;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.random.RestoreSafeRandom;
import dev.pastebin.core.storage.ContentLocation;
import dev.pastebin.core.storage.LargeFileProperties;
import dev.pastebin.core.storage.ListedObject;
import dev.pastebin.core.storage.PasteContentStore;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles S3 with the database (docs/design.md, "Orphan objects"): removes the objects whose short code no row
 * names, under the paste prefix ({@code pastes/<code>}) and a large paste's two ({@code staging/<code>/<n>},
 * {@code files/<code>/<n>}). Every way of removing a paste deletes its objects too, so these are the leftovers of a
 * delete that could not be retried to the end (a job dead-lettered while S3 refused it), or of a client's upload to a
 * URL signed before its paste was removed that the worker could not delete. In normal operation no live object can
 * be taken for one: the row is inserted before its job is sent, a large paste's row and file rows are committed
 * before its upload URLs are answered, and a worker only stores or moves content for a row it has read, so an object
 * listed before its codes are looked up, and found without a row, can never gain one; and a paste removed after the
 * listing is removed anyway.
 *
 * <p>Guarded all the same, because a deleted object cannot be recovered (the bucket is not versioned) and is the
 * only copy of its content: pointed at a restored or wrong database, the reconciliation would delete every paste
 * that database lacks. So each run first advances the <em>sweep epoch</em>, a counter kept both in the database
 * ({@code sweeper_epoch}) and in the bucket's marker ({@link PasteContentStore#SWEEP_EPOCH_KEY}), the database's
 * committed before the marker is written. A database whose epoch is behind the marker's went back in time (a
 * point-in-time restore, a dump loaded, another database): the run deletes nothing, logs an error line and reports
 * {@code DatabaseRestored}, and every later run does the same until an operator acknowledges the restore
 * ({@code UPDATE sweeper_epoch SET restore_acknowledged = true}; docs/operating.md, "Restoring the database"). The
 * acknowledging run moves the epoch past the marker's and reconciles again. This catches a gap of any size, as
 * long as one reconciling sweep ran between the restore point and the switch to the restored database.
 *
 * <p>Two more guards stay: an object S3 wrote less than {@link SweeperProperties#orphanMinAge()} ago is never
 * judged (a margin), and a page whose orphaned pastes are an implausible share of the pastes it judged
 * ({@link SweeperProperties#orphanMaxShare()}, above {@link SweeperProperties#orphanGuardMinimum()}) stops the run
 * before its delete, with an error line and the {@code OrphanGuardStops} metric. Counted by paste, not by object, so a
 * large paste's files weigh as one leftover.
 *
 * <p>Bounded: at most {@link SweeperProperties#orphanKeysPerRun()} keys a prefix a run, in pages of at most 1000
 * (one ListObjectsV2, one SELECT, at most one DeleteObjects), none started once the deadline is near. Without a
 * cursor to keep, each run starts at a random short code and wraps around, so successive runs cover each
 * prefix whatever its size.
 */
@Singleton
class OrphanObjects {

    private static final Logger LOG = LoggerFactory.getLogger(OrphanObjects.class);

    private static final int PAGE = 1000;
    /** Codes named in the line of a stopped run: enough to look them up, few enough to read. */
    private static final int EXAMPLES = 5;

    private final PasteContentStore contentStore;
    private final SweepRepository repository;
    private final TransactionOperations<Connection> transactions;
    private final SweeperProperties properties;
    private final StorageProperties storage;
    private final LargeFileProperties largeFiles;

    OrphanObjects(
            PasteContentStore contentStore,
            SweepRepository repository,
            TransactionOperations<Connection> transactions,
            SweeperProperties properties,
            StorageProperties storage,
            LargeFileProperties largeFiles) {
        this.contentStore = contentStore;
        this.repository = repository;
        this.transactions = transactions;
        this.properties = properties;
        this.storage = storage;
        this.largeFiles = largeFiles;
    }

    /**
     * What one reconciliation did: keys listed, orphan keys removed, whether the share guard stopped it, and
     * whether it refused to start because its database went back in time.
     */
    record Report(int checked, int removed, boolean stopped, boolean databaseRestored) {

        static final Report NONE = new Report(0, 0, false, false);
    }

    Report reconcile(Deadline deadline) {
        if (properties.orphanKeysPerRun() == 0) {
            return Report.NONE;
        }
        if (!advanceEpoch()) {
            return new Report(0, 0, false, true);
        }
        String start = randomCode();
        // S3's LastModified against this JVM's clock: a skew is nothing beside a guard of days
        Instant judgedBefore = Instant.now().minus(properties.orphanMinAge());
        int checked = 0;
        int removed = 0;
        for (String prefix : prefixes()) {
            Report pass = reconcile(prefix, start, judgedBefore, deadline);
            checked += pass.checked();
            removed += pass.removed();
            if (pass.stopped()) {
                return new Report(checked, removed, true, false);
            }
        }
        return new Report(checked, removed, false, false);
    }

    /**
     * Where paste content is kept: the small pastes' prefix ({@code pastes/<code>}), then a large paste's staged and
     * verified files ({@code staging/<code>/<n>}, {@code files/<code>/<n>}; docs/design.md, "Large files: straight
     * to S3").
     */
    private List<String> prefixes() {
        return List.of(storage.keyPrefix(), largeFiles.stagingPrefix(), largeFiles.filesPrefix());
    }

    /**
     * One prefix's pass, with a budget of its own: the objects under it whose short code no row names are deleted, a
     * page at a time, unless a page's orphaned codes are an implausible share of the codes it judged.
     */
    private Report reconcile(String prefix, String start, Instant judgedBefore, Deadline deadline) {
        int budget = properties.orphanKeysPerRun();
        int checked = 0;
        int removed = 0;
        String after = start;
        boolean wrapped = false;
        while (checked < budget && deadline.allowsMoreWork()) {
            int limit = Math.min(PAGE, budget - checked);
            List<ListedObject> page = contentStore.objectsUnder(prefix, after, limit);
            if (wrapped) {
                // past the start again: the rest was covered before the wrap
                page = page.stream()
                        .takeWhile(object -> object.shortCode().compareTo(start) <= 0)
                        .toList();
            }
            checked += page.size();
            List<ListedObject> judged = page.stream()
                    .filter(object -> !object.lastModified().isAfter(judgedBefore))
                    .toList();
            // judged by paste, not by object: a large paste's ten files are one leftover, not ten
            Set<String> judgedCodes = new LinkedHashSet<>();
            judged.forEach(object -> judgedCodes.add(object.shortCode()));
            List<String> orphans = orphansAmong(List.copyOf(judgedCodes));
            if (implausible(orphans.size(), judgedCodes.size())) {
                LOG.error(
                        "orphan reconciliation stopped before deleting: {} of {} pastes with objects older than {} under {}"
                                + " in one page have no row (more than {} and a share above {}); is the sweeper's database"
                                + " the bucket's? e.g. {}",
                        orphans.size(),
                        judgedCodes.size(),
                        properties.orphanMinAge(),
                        prefix,
                        properties.orphanGuardMinimum(),
                        properties.orphanMaxShare(),
                        orphans.subList(0, Math.min(EXAMPLES, orphans.size())));
                return new Report(checked, removed, true, false);
            }
            Set<String> orphaned = Set.copyOf(orphans);
            List<ContentLocation> orphanKeys = judged.stream()
                    .filter(object -> orphaned.contains(object.shortCode()))
                    .map(object -> new ContentLocation(storage.bucket(), object.key()))
                    .toList();
            removed += orphanKeys.isEmpty() ? 0 : contentStore.deleteAll(orphanKeys);
            if (page.size() < limit) {
                if (wrapped) {
                    break;
                }
                wrapped = true;
                after = "";
            } else {
                after = page.getLast().key().substring(prefix.length());
            }
        }
        return new Report(checked, removed, false, false);
    }

    /**
     * Advances the sweep epoch, in the database (committed) and then in the bucket's marker; false, and nothing
     * written, when the database's epoch is behind the marker's and no operator acknowledged it. A marker write
     * that fails leaves the marker behind the database, which is never taken for a restore, and fails the run
     * before it deletes anything.
     */
    private boolean advanceEpoch() {
        long marker = contentStore.sweepEpochMarker().orElse(0);
        Optional<SweepRepository.AdvancedEpoch> advanced = transactions.executeWrite(status -> {
            try {
                return repository.advanceEpoch(status.getConnection(), marker);
            } catch (SQLException e) {
                throw new SweepService.SweepFailedException("advancing the sweep epoch failed: " + e.getMessage(), e);
            }
        });
        if (advanced.isEmpty()) {
            long epoch = transactions.executeRead(status -> {
                try {
                    return repository.epoch(status.getConnection());
                } catch (SQLException e) {
                    throw new SweepService.SweepFailedException("reading the sweep epoch failed: " + e.getMessage(), e);
                }
            });
            LOG.error(
                    "orphan reconciliation refused, nothing deleted: the database went back in time (its sweep epoch is"
                            + " {}, the bucket's marker {} says {}): a restore, or another database. The objects of the"
                            + " pastes created since the restore point have no row. Decide what becomes of them, then"
                            + " acknowledge: UPDATE sweeper_epoch SET restore_acknowledged = true (docs/operating.md,"
                            + " \"Restoring the database\")",
                    epoch,
                    PasteContentStore.SWEEP_EPOCH_KEY,
                    marker);
            return false;
        }
        SweepRepository.AdvancedEpoch epoch = advanced.get();
        if (epoch.previous() < marker) {
            LOG.warn(
                    "database restore acknowledged: the sweep epoch moves from {} past the marker's {} to {};"
                            + " objects no row names are reconciled again",
                    epoch.previous(),
                    marker,
                    epoch.epoch());
        }
        contentStore.putSweepEpochMarker(epoch.epoch());
        return true;
    }

    private boolean implausible(int orphans, int judged) {
        return orphans > properties.orphanGuardMinimum() && orphans > properties.orphanMaxShare() * judged;
    }

    private List<String> orphansAmong(List<String> codes) {
        if (codes.isEmpty()) {
            return List.of();
        }
        Set<String> named = transactions.executeRead(status -> {
            try {
                return repository.existingCodes(status.getConnection(), codes);
            } catch (SQLException e) {
                throw new SweepService.SweepFailedException("looking up listed codes failed: " + e.getMessage(), e);
            }
        });
        return codes.stream().filter(code -> !named.contains(code)).toList();
    }

    /** Two characters of the short codes' alphabet: a uniform point in S3's key order of the codes. */
    private static String randomCode() {
        var random = RestoreSafeRandom.generator();
        return "" + ShortCodes.ALPHABET.charAt(random.nextInt(ShortCodes.ALPHABET.length()))
                + ShortCodes.ALPHABET.charAt(random.nextInt(ShortCodes.ALPHABET.length()));
    }
}
