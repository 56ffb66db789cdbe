package dev.pastebin.upload;

import dev.pastebin.core.breaker.S3CircuitBreaker;
import dev.pastebin.core.failure.Failure;
import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.upload.hold.HeldBacklog;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns how a delivery ended into its {@link Outcome}, in three steps: what the decision needs (the failure
 * classified, the breaker asked how long until its next probe, the held backlog, the time) as an {@link Ending}; the
 * {@link Decision}, a pure function of it ({@link DeliveryDecisions}); and the decision carried out and reported
 * ({@link DeliveryEffects}). It never throws.
 */
@Singleton
class DeliveryOutcomes {

    private static final Logger LOG = LoggerFactory.getLogger(DeliveryOutcomes.class);

    private final FailureClassifier classifier;
    private final S3CircuitBreaker breaker;
    private final DeliveryDecisions decisions;
    private final DeliveryEffects effects;
    private final HeldBacklog backlog;
    private final Clock clock;

    @Inject
    DeliveryOutcomes(
            FailureClassifier classifier,
            S3CircuitBreaker breaker,
            DeliveryDecisions decisions,
            DeliveryEffects effects,
            HeldBacklog backlog) {
        this(classifier, breaker, decisions, effects, backlog, Clock.systemUTC());
    }

    DeliveryOutcomes(
            FailureClassifier classifier,
            S3CircuitBreaker breaker,
            DeliveryDecisions decisions,
            DeliveryEffects effects,
            HeldBacklog backlog,
            Clock clock) {
        this.classifier = classifier;
        this.breaker = breaker;
        this.decisions = decisions;
        this.effects = effects;
        this.backlog = backlog;
        this.clock = clock;
    }

    Outcome stored(UploadDelivery delivery, StoreResult result) {
        Instant now = clock.instant();
        Ending ending = switch (result) {
            case StoreResult.Stored stored -> new Ending.Stored(stored.s3Attempt(), stored.sinceCreated());
            case StoreResult.AlreadyTerminal terminal -> new Ending.Duplicate(terminal.detail());
            case StoreResult.LostRace race -> new Ending.Duplicate(race.detail());
            case StoreResult.Removed removed -> new Ending.Removed(removed.detail());
            case StoreResult.RemovalFailed removal -> {
                Failure failure = classifier.classify(removal.error());
                if (failure.unexpected()) {
                    LOG.error("unexpected failure removing the object of {}", delivery.shortCode(), removal.error());
                }
                yield new Ending.RemovalFailed(removal.detail(), failure);
            }
            case StoreResult.Held held ->
                new Ending.Held(
                        classifier.classify(held.cause()),
                        held.heldSince(),
                        breaker.untilNextProbe(held.cause(), now),
                        held.firstHoldToNote(),
                        held.noted(),
                        backlog.held());
        };
        return conclude(delivery, ending, now);
    }

    Outcome failed(UploadDelivery delivery, RuntimeException error) {
        Failure failure = classifier.classify(error);
        if (failure.unexpected()) {
            LOG.error(
                    "unexpected failure uploading {} (delivery {}), retried as transient",
                    delivery.shortCode(),
                    delivery.number().number(),
                    error);
        }
        Ending ending = error instanceof S3AttemptFailedException s3
                ? new Ending.S3AttemptFailed(failure, s3.attempt(), s3.firstHeldAt())
                : new Ending.Failed(failure);
        return conclude(delivery, ending, clock.instant());
    }

    /** Not an upload job this worker can process. */
    Outcome poison(UploadDelivery delivery, String reason) {
        return conclude(delivery, new Ending.Poison(reason), clock.instant());
    }

    private Outcome conclude(UploadDelivery delivery, Ending ending, Instant now) {
        Decision decision = decisions.decide(delivery.number(), ending, now);
        try {
            return effects.perform(delivery, decision);
        } catch (DeliveryEffects.FailedNotRecorded notRecorded) {
            // The database is down: the paste cannot be FAILED now, so the job comes back to try again.
            Failure database = classifier.classify(notRecorded.getCause());
            return conclude(delivery, new Ending.NotMarkedFailed(decision.outcome(), database), clock.instant());
        }
    }
}
