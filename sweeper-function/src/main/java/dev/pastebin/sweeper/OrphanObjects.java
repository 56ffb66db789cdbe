package dev.pastebin.sweeper;

import dev.pastebin.core.lambda.Deadline;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.random.RestoreSafeRandom;
import dev.pastebin.core.storage.ContentLocation;
import dev.pastebin.core.storage.PasteContentStore;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Set;

/**
 * Reconciles S3 with the database (docs/design.md, "Orphan objects"): removes the objects under the paste
 * prefix whose short code no row names. Every way of removing a paste deletes its object too, so these are
 * the leftovers of a delete that could not be retried to the end (a job dead-lettered while S3 refused it).
 * No age guard is needed: the row is inserted before its job is sent and a worker only stores content for a
 * row it has read, so an object listed before its codes are looked up, and found without a row, can never
 * gain one; and a paste removed after the listing is removed anyway.
 *
 * <p>Bounded: at most {@link SweeperProperties#orphanKeysPerRun()} keys a run, in pages of at most 1000 (one
 * ListObjectsV2, one SELECT, at most one DeleteObjects), none started once the deadline is near. Without a
 * cursor to keep, each run starts at a random short code and wraps around, so successive runs cover the
 * whole prefix whatever its size.
 */
@Singleton
class OrphanObjects {

    private static final int PAGE = 1000;

    private final PasteContentStore contentStore;
    private final SweepRepository repository;
    private final TransactionOperations<Connection> transactions;
    private final SweeperProperties properties;

    OrphanObjects(PasteContentStore contentStore, SweepRepository repository, TransactionOperations<Connection> transactions,
                  SweeperProperties properties) {
        this.contentStore = contentStore;
        this.repository = repository;
        this.transactions = transactions;
        this.properties = properties;
    }

    /** What one reconciliation did: keys looked at, orphan keys removed. */
    record Report(int checked, int removed) {
    }

    Report reconcile(Deadline deadline) {
        String start = randomCode();
        int budget = properties.orphanKeysPerRun();
        int checked = 0;
        int removed = 0;
        String after = start;
        boolean wrapped = false;
        while (checked < budget && deadline.allowsMoreWork()) {
            int limit = Math.min(PAGE, budget - checked);
            List<String> codes = contentStore.codesAfter(after, limit);
            if (wrapped) {
                // past the start again: the rest was covered before the wrap
                codes = codes.stream().takeWhile(code -> code.compareTo(start) <= 0).toList();
            }
            checked += codes.size();
            removed += removeOrphans(codes);
            if (codes.size() < limit) {
                if (wrapped) {
                    break;
                }
                wrapped = true;
                after = "";
            } else {
                after = codes.getLast();
            }
        }
        return new Report(checked, removed);
    }

    private int removeOrphans(List<String> codes) {
        if (codes.isEmpty()) {
            return 0;
        }
        Set<String> named = transactions.executeRead(status -> {
            try {
                return repository.existingCodes(status.getConnection(), codes);
            } catch (SQLException e) {
                throw new SweepService.SweepFailedException("looking up listed codes failed: " + e.getMessage(), e);
            }
        });
        List<ContentLocation> orphans = codes.stream().filter(code -> !named.contains(code))
                .map(contentStore::locationOf).toList();
        return orphans.isEmpty() ? 0 : contentStore.deleteAll(orphans);
    }

    /** Two characters of the short codes' alphabet: a uniform point in S3's key order of the codes. */
    private static String randomCode() {
        var random = RestoreSafeRandom.generator();
        return "" + ShortCodes.ALPHABET.charAt(random.nextInt(ShortCodes.ALPHABET.length()))
                + ShortCodes.ALPHABET.charAt(random.nextInt(ShortCodes.ALPHABET.length()));
    }
}
