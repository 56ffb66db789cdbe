package dev.pastebin.upload;

import dev.pastebin.core.aws.SqsProperties;
import dev.pastebin.core.breaker.BreakerProperties;
import dev.pastebin.core.breaker.BreakerSnapshot;
import dev.pastebin.core.breaker.BreakerState;
import dev.pastebin.core.breaker.BreakerStore;
import dev.pastebin.core.delivery.DeliveryProperties;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.upload.hold.DeliveryStart;
import dev.pastebin.upload.hold.DeliveryStarts;
import dev.pastebin.upload.hold.EarlyHold;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;

/**
 * A delivery's first statement over the in-memory paste rows, breaker and held deliveries, for unit tests, holding a
 * job on the same terms as the SQL ({@link EarlyHold}); the statement itself is exercised by UploadRoundTripsIT and
 * the other ITs.
 */
final class InMemoryDeliveryStarts implements DeliveryStarts {

    private final InMemoryPasteRepository repository;
    private final BreakerStore breakers;
    private final InMemoryHeldDeliveries held;
    private final BreakerProperties breaker;
    private final DeliveryProperties delivery;
    private final SqsProperties sqs;

    InMemoryDeliveryStarts(
            InMemoryPasteRepository repository,
            BreakerStore breakers,
            InMemoryHeldDeliveries held,
            BreakerProperties breaker,
            DeliveryProperties delivery,
            SqsProperties sqs) {
        this.repository = repository;
        this.breakers = breakers;
        this.held = held;
        this.breaker = breaker;
        this.delivery = delivery;
        this.sqs = sqs;
    }

    @Override
    public synchronized DeliveryStart begin(String shortCode, String contentSha256, String receiptHandle, Instant now) {
        Optional<Paste> row = repository.findById(shortCode);
        if (!breaker.enabled()) {
            return DeliveryStart.rowOnly(row);
        }
        EarlyHold hold = EarlyHold.at(now, breaker, delivery, sqs);
        BreakerSnapshot snapshot = breakers.read(hold.breaker());
        if (row.isPresent() && holdsNow(row.get(), contentSha256, snapshot, hold)) {
            repository.recordFirstHold(shortCode, hold.now());
            held.recordHeldDelivery(shortCode, receiptHandle, hold.heldUntilAtMost(), null);
            return new DeliveryStart(
                    row, snapshot, repository.findById(shortCode).orElseThrow().firstHeldAt());
        }
        return new DeliveryStart(row, snapshot, null);
    }

    private static boolean holdsNow(Paste paste, String contentSha256, BreakerSnapshot snapshot, EarlyHold hold) {
        return paste.status() == PasteStatus.IN_PROGRESS
                && paste.contentSha256().trim().toLowerCase(Locale.ROOT).equals(contentSha256)
                && snapshot.state() == BreakerState.OPEN
                && snapshot.nextProbeAt().isAfter(hold.probeAfter())
                && (paste.firstHeldAt() == null || paste.firstHeldAt().isAfter(hold.firstHeldAfter()));
    }
}
