package dev.pastebin.core.breaker;

import dev.pastebin.core.failure.Failure;
import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.metrics.Metrics;
import io.micronaut.context.event.ApplicationEventPublisher;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The circuit breaker on S3, shared by every execution environment through its PostgreSQL row
 * (docs/design.md, "Circuit breaker"). Closed: S3 is called, and transient failures are counted per window;
 * too high a failure rate, or one answer that says S3 is misconfigured for everyone (access denied, no such
 * bucket, a KMS key error), opens it. Open: nobody calls S3 ({@link CircuitOpenException}) until the cooldown
 * has passed; then exactly one caller, the one that moves the row to HALF_OPEN, probes. An answer closes it;
 * a failure reopens it with a doubled, capped cooldown.
 *
 * <p>An answer costs one read of the row and no write of its own, healthy or flaky: an environment keeps its
 * answers in memory ({@link UncountedSuccesses}) and adds them with its next failure, or in place once the
 * oldest is a sixth of a window old ({@link BreakerPolicy#answersWrittenEvery}), so every outcome is counted,
 * whenever its call started and whichever environment made it, the rate is biased neither towards failures
 * nor towards a sick environment, and the row's lock is taken by failures, probes and at most one write of
 * answers per environment per sixth of a window. Every transition is published as a {@link BreakerTransition} in the
 * call that made it ({@link BreakerTransitionRecorder} logs and counts it), and the probe whose answer closed it
 * publishes {@link BreakerClosed} in its own call (the upload worker releases its held jobs on it).
 */
@Singleton
public class S3CircuitBreaker {

    private static final Logger BREAKER = LoggerFactory.getLogger("pastebin.breaker");
    private static final Logger LOG = LoggerFactory.getLogger(S3CircuitBreaker.class);

    private final BreakerStore store;
    private final BreakerPolicy policy;
    private final BreakerProperties properties;
    private final FailureClassifier classifier;
    private final Clock clock;
    private final UncountedSuccesses uncounted;
    private final ApplicationEventPublisher<BreakerTransition> transitions;
    private final ApplicationEventPublisher<BreakerClosed> closings;
    /** The row as this environment last read or wrote it: whether a release of held jobs waits to be continued. */
    private volatile @Nullable BreakerSnapshot lastSeen;

    @Inject
    public S3CircuitBreaker(
            BreakerStore store,
            BreakerProperties properties,
            FailureClassifier classifier,
            ApplicationEventPublisher<BreakerTransition> transitions,
            ApplicationEventPublisher<BreakerClosed> closings) {
        this(store, properties, classifier, transitions, closings, Clock.systemUTC());
    }

    /**
     * A breaker outside an application context (benchmarks, unit tests): its transitions are logged and counted on
     * {@code metrics}, its closing nobody hears of.
     */
    public S3CircuitBreaker(
            BreakerStore store, BreakerProperties properties, FailureClassifier classifier, Metrics metrics) {
        this(store, properties, classifier, metrics, ApplicationEventPublisher.noOp(), Clock.systemUTC());
    }

    /** Outside an application context, with its transitions logged and counted on {@code metrics}. */
    S3CircuitBreaker(
            BreakerStore store,
            BreakerProperties properties,
            FailureClassifier classifier,
            Metrics metrics,
            ApplicationEventPublisher<BreakerClosed> closings,
            Clock clock) {
        this(
                store,
                properties,
                classifier,
                new BreakerTransitionRecorder(metrics)::onApplicationEvent,
                closings,
                clock);
    }

    /** Publishing its transitions to {@code transitions}: the context's listeners, or a test's. */
    S3CircuitBreaker(
            BreakerStore store,
            BreakerProperties properties,
            FailureClassifier classifier,
            ApplicationEventPublisher<BreakerTransition> transitions,
            ApplicationEventPublisher<BreakerClosed> closings,
            Clock clock) {
        this.store = store;
        this.transitions = transitions;
        this.closings = closings;
        this.policy = new BreakerPolicy(properties);
        this.properties = properties;
        this.classifier = classifier;
        this.clock = clock;
        this.uncounted = new UncountedSuccesses(properties.window());
    }

    public boolean enabled() {
        return properties.enabled();
    }

    /**
     * Runs {@code s3Call} if the breaker lets it, and counts its outcome.
     *
     * @throws CircuitOpenException when the breaker is open or another caller is probing: S3 was not called
     */
    public <T> T call(Supplier<T> s3Call) {
        return call(null, s3Call);
    }

    /**
     * As {@link #call(Supplier)}, deciding on the breaker's row as the caller just read it along with its own
     * ({@code seen}; null: read it now), so that the call costs no read of its own.
     *
     * @throws CircuitOpenException when the breaker is open or another caller is probing: S3 was not called
     */
    public <T> T call(@Nullable BreakerSnapshot seenByCaller, Supplier<T> s3Call) {
        if (!properties.enabled()) {
            return s3Call.get();
        }
        BreakerSnapshot seen = seenByCaller == null ? read() : seenByCaller;
        lastSeen = seen;
        boolean probe = switch (policy.admit(seen, clock.instant())) {
            case BreakerPolicy.Admission.Call call -> false;
            case BreakerPolicy.Admission.Wait wait -> throw new CircuitOpenException(wait.until());
            case BreakerPolicy.Admission.Probe due -> electProbe();
        };
        T result;
        try {
            result = s3Call.get();
        } catch (RuntimeException e) {
            Failure failure = classifier.classify(e);
            if (failure.errorClass().misconfiguresStorage()
                    || failure.errorClass().meansStorageUnavailable()) {
                boolean opensAtOnce = failure.errorClass().misconfiguresStorage();
                apply(s -> {
                    Instant now = clock.instant();
                    return policy.afterFailure(
                            policy.withUncounted(s, now, uncounted), now, probe, opensAtOnce, failure.message());
                });
            } else {
                answered(seen, probe);
            }
            throw e;
        }
        answered(seen, probe);
        return result;
    }

    /**
     * The refusal {@link #call(BreakerSnapshot, Supplier)} would throw for the row as the caller just read it
     * ({@code seenByCaller}), decided without a read or a write of its own, so that a caller the breaker holds skips
     * what it does only before an S3 call. Empty when the call may go ahead, when the probe is due (the election under
     * the row's lock decides who probes), or when there is no row to judge by.
     */
    public Optional<CircuitOpenException> refusal(@Nullable BreakerSnapshot seenByCaller) {
        if (!properties.enabled() || seenByCaller == null) {
            return Optional.empty();
        }
        lastSeen = seenByCaller;
        return policy.admit(seenByCaller, clock.instant()) instanceof BreakerPolicy.Admission.Wait wait
                ? Optional.of(new CircuitOpenException(wait.until()))
                : Optional.empty();
    }

    /** When the next probe may run, while the breaker is not closed: how long a client should wait. */
    public Optional<Instant> nextProbe() {
        if (!properties.enabled()) {
            return Optional.empty();
        }
        BreakerSnapshot s = read();
        return s.state() == BreakerState.CLOSED ? Optional.empty() : Optional.ofNullable(s.nextProbeAt());
    }

    /** Whether uploads call S3 freely: the breaker is off, or its row says CLOSED (the sweeper requeues only then). */
    public boolean closed() {
        return !properties.enabled() || read().state() == BreakerState.CLOSED;
    }

    /**
     * The close whose release of held jobs is not finished and that nobody is releasing at {@code now}, as this
     * environment last saw the row (no read of its own): the upload worker takes it over after its batch. Empty while
     * the breaker is not closed.
     */
    public Optional<Instant> releaseToContinue(Instant now) {
        BreakerSnapshot s = lastSeen;
        BreakerSnapshot.PendingRelease release = s == null ? null : s.release();
        if (!properties.enabled() || release == null || s.state() != BreakerState.CLOSED) {
            return Optional.empty();
        }
        return release.freeAt(now) ? Optional.of(release.from()) : Optional.empty();
    }

    private BreakerSnapshot read() {
        BreakerSnapshot s = store.read(properties.name());
        lastSeen = s;
        return s;
    }

    /**
     * How long until the breaker may let a held upload try again: the next probe of the open breaker that
     * refused it ({@code heldBy} a {@link CircuitOpenException}), else the breaker's current one (S3 just said it
     * is misconfigured). Zero when the breaker is closed, the probe is due, or its row cannot be read.
     */
    public Duration untilNextProbe(Throwable heldBy, Instant now) {
        Instant next;
        if (heldBy instanceof CircuitOpenException open) {
            next = open.nextProbeAt();
        } else {
            try {
                next = nextProbe().orElse(now);
            } catch (RuntimeException e) {
                next = now;
            }
        }
        Duration until = Duration.between(now, next);
        return until.isNegative() ? Duration.ZERO : until;
    }

    /** Under the row's lock: the first caller to find the probe due moves the row to HALF_OPEN and probes. */
    private boolean electProbe() {
        boolean[] elected = {false};
        BreakerStore.Change change = apply(s -> {
            Instant now = clock.instant();
            if (policy.admit(s, now) instanceof BreakerPolicy.Admission.Probe) {
                elected[0] = true;
                return policy.probeStarted(s, now);
            }
            return s;
        });
        if (elected[0]) {
            return true;
        }
        return switch (policy.admit(change.after(), clock.instant())) {
            case BreakerPolicy.Admission.Call call -> false;
            case BreakerPolicy.Admission.Wait wait -> throw new CircuitOpenException(wait.until());
            case BreakerPolicy.Admission.Probe due -> throw new CircuitOpenException(clock.instant());
        };
    }

    private void answered(BreakerSnapshot seen, boolean probe) {
        if (probe) {
            BreakerStore.Change change = apply(s -> policy.afterProbeAnswered(s, clock.instant()));
            if (change.transitioned() && change.after().state() == BreakerState.CLOSED) {
                announceClosing();
            }
        } else if (seen.state() == BreakerState.CLOSED) {
            // An answer cannot open the breaker: it waits for this environment's next failure, which weighs it, or
            // for the timed write below, so S3 answering costs no write of its own on the row the whole fleet
            // shares (docs/scale.md).
            Instant now = clock.instant();
            uncounted.add(now);
            if (uncounted.takeWriteTurn(now, policy.answersWrittenEvery())) {
                writeAnswers(seen, now);
            }
        }
    }

    /**
     * Adds the answers this environment kept to the shared row, so that environments that never fail count too.
     * Added in place to the window {@code seen} (this call's read) shows; when that window has moved on, under the
     * row's lock, which rolls it. A database error does not fail the call S3 answered: the answers wait for the
     * next write.
     */
    private void writeAnswers(BreakerSnapshot seen, Instant now) {
        try {
            if (policy.windowIsCurrent(seen, now) && addedInPlace(seen.windowStartedAt())) {
                return;
            }
            apply(s -> policy.withUncounted(s, clock.instant(), uncounted));
        } catch (RuntimeException e) {
            LOG.warn(
                    "breaker {}: writing this environment's answers failed, they wait for its next write: {}",
                    properties.name(),
                    e.toString());
        }
    }

    /** Whether the kept answers were added to the window starting at {@code windowStartedAt}; if not, they are kept. */
    private boolean addedInPlace(Instant windowStartedAt) {
        UncountedSuccesses.Drained drained = uncounted.drain(windowStartedAt);
        boolean added = false;
        try {
            added = !drained.counts()
                    || store.addAnswers(properties.name(), windowStartedAt, drained.inWindow(), drained.inPrevious());
        } finally {
            if (!added) {
                uncounted.restore(drained);
            }
        }
        return added;
    }

    /**
     * Tells the listeners, in this call, that this probe closed the breaker. What they do is a bonus (releasing held
     * jobs early): it never turns the probe's answer into a failure.
     */
    private void announceClosing() {
        try {
            closings.publishEvent(new BreakerClosed(properties.name(), clock.instant()));
        } catch (RuntimeException e) {
            BREAKER.warn("a listener of breaker {}'s closing failed: {}", properties.name(), e.toString());
        }
    }

    /** Changes the row under its lock; a change of state is published, in this call, before it returns. */
    private BreakerStore.Change apply(UnaryOperator<BreakerSnapshot> change) {
        BreakerStore.Change result = store.update(properties.name(), change);
        lastSeen = result.after();
        if (result.transitioned()) {
            transitions.publishEvent(
                    BreakerTransition.between(properties.name(), result.before(), result.after(), clock.instant()));
        }
        return result;
    }
}
