package dev.pastebin.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.failure.ErrorClass;
import dev.pastebin.core.failure.FailureKind;
import dev.pastebin.core.support.TestDelivery;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Every jitter strategy, for any valid configuration, attempt, error class and random source: the delay stays
 * within the strategy's own bounds and [min-delay, max-delay], the visibility timeout is that delay rounded
 * down or up and within SQS's limit, and exactly max-attempts - 1 retries are scheduled.
 */
class BackoffPolicyPropertiesTest {

    /** Rounding error allowed when comparing seconds computed from nanoseconds. */
    private static final double EPSILON = 1e-6;

    @Property(tries = 1_000)
    void everyDelayStaysWithinItsStrategysBounds(
            @ForAll("configurations") DeliveryProperties retry,
            @ForAll("transientClasses") ErrorClass errorClass,
            @ForAll long seed) {
        var policy = new BackoffPolicy(retry, new SplittableRandom(seed));
        double min = seconds(retry.minDelay());
        double max = seconds(retry.maxDelay());
        double base = seconds(retry.baseDelayFor(errorClass));
        for (int attempt = 1; attempt < retry.maxAttempts(); attempt++) {
            double nominal = policy.nominalDelaySeconds(attempt, errorClass);
            double delay = policy.delaySeconds(attempt, errorClass);
            assertTrue(
                    delay >= min - EPSILON && delay <= max + EPSILON,
                    "attempt " + attempt + ": " + delay + " outside [" + min + ", " + max + "]");
            double[] strategyBounds = switch (retry.jitter()) {
                case PLUS_MINUS ->
                    new double[] {nominal - seconds(retry.plusMinusJitter()), nominal + seconds(retry.plusMinusJitter())
                    };
                case FULL -> new double[] {0, nominal};
                case DECORRELATED ->
                    new double[] {
                        base,
                        Math.max(base, 3 * (attempt == 1 ? base : policy.nominalDelaySeconds(attempt - 1, errorClass)))
                    };
                case NONE -> new double[] {nominal, nominal};
            };
            // the strategy's interval, then clamped to [min, max]
            double low = Math.clamp(strategyBounds[0], min, max);
            double high = Math.clamp(strategyBounds[1], min, max);
            assertTrue(
                    delay >= low - EPSILON && delay <= high + EPSILON,
                    retry.jitter() + " attempt " + attempt + ": " + delay + " outside "
                            + Arrays.toString(new double[] {low, high}));

            int visibility = policy.visibilityTimeoutSeconds(attempt, errorClass);
            assertTrue(
                    visibility >= Math.floor(low - EPSILON) && visibility <= Math.ceil(high + EPSILON),
                    "visibility " + visibility);
            assertTrue(
                    visibility >= 0 && visibility <= SqsLimits.MAX_VISIBILITY_TIMEOUT_SECONDS,
                    "visibility " + visibility);
        }
    }

    @Property(tries = 200)
    void exactlyMaxAttemptsMinusOneRetriesAreScheduled(@ForAll("configurations") DeliveryProperties retry) {
        var policy = new BackoffPolicy(retry, new SplittableRandom(1));
        int retries = 0;
        for (int attempt = 1; policy.hasAttemptsLeft(new S3Attempt(attempt)); attempt++) {
            retries++;
        }
        assertEquals(retry.maxAttempts() - 1, retries);
        assertEquals(retry.maxAttempts(), policy.maxAttempts());
    }

    @Provide
    Arbitrary<DeliveryProperties> configurations() {
        Arbitrary<Integer> attempts = Arbitraries.integers().between(1, 20);
        Arbitrary<Long> baseMillis = Arbitraries.longs().between(0, 30_000);
        Arbitrary<Double> multiplier = Arbitraries.doubles().between(1.0, 5.0);
        Arbitrary<long[]> minMaxMillis = Arbitraries.longs()
                .between(0, SqsLimits.MAX_VISIBILITY_TIMEOUT.toMillis())
                .list()
                .ofSize(2)
                .map(l -> new long[] {Math.min(l.get(0), l.get(1)), Math.max(l.get(0), l.get(1))});
        Arbitrary<JitterStrategy> jitter = Arbitraries.of(JitterStrategy.class);
        Arbitrary<Long> plusMinusMillis = Arbitraries.longs().between(0, 5_000);
        Arbitrary<Long> throttlingMillis = Arbitraries.longs().between(0, 60_000);
        return Combinators.combine(
                        attempts, baseMillis, multiplier, minMaxMillis, jitter, plusMinusMillis, throttlingMillis)
                .as((n, base, m, bounds, j, pm, throttling) -> TestDelivery.defaults()
                        .maxAttempts(n)
                        .baseDelay(Duration.ofMillis(base))
                        .multiplier(m)
                        .maxDelay(Duration.ofMillis(bounds[1]))
                        .minDelay(Duration.ofMillis(bounds[0]))
                        .jitter(j)
                        .plusMinusJitter(Duration.ofMillis(pm))
                        .classBaseDelays(Map.of(ErrorClass.THROTTLING, Duration.ofMillis(throttling)))
                        .build());
    }

    @Provide
    Arbitrary<ErrorClass> transientClasses() {
        return Arbitraries.of(ErrorClass.class).filter(c -> c.kind() == FailureKind.TRANSIENT);
    }

    private static double seconds(Duration d) {
        return d.toNanos() / 1e9;
    }
}
