package dev.pastebin.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.failure.ErrorClass;
import dev.pastebin.core.support.TestDelivery;
import java.time.Duration;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The schedule of each jitter strategy, sampled many times from a seeded source: every sample inside the
 * strategy's bounds, and the sample mean within a tolerance of the strategy's expected value (several
 * standard errors wide, and deterministic because the seed is fixed).
 */
class BackoffPolicyTest {

    private static final int SAMPLES = 100_000;
    private static final double[] DEFAULT_NOMINAL = {1, 2, 4, 8, 16};

    static DeliveryProperties properties(
            JitterStrategy jitter, Duration minDelay, Duration maxDelay, Map<ErrorClass, Duration> classBaseDelays) {
        return TestDelivery.defaults()
                .jitter(jitter)
                .minDelay(minDelay)
                .maxDelay(maxDelay)
                .classBaseDelays(classBaseDelays)
                .build();
    }

    static BackoffPolicy policy(JitterStrategy jitter) {
        return new BackoffPolicy(
                properties(jitter, Duration.ZERO, Duration.ofMinutes(5), null), new SplittableRandom(42));
    }

    @Test
    void theDefaultScheduleIsTheDesignedOne() {
        BackoffPolicy policy = policy(JitterStrategy.NONE);
        for (int attempt = 1; attempt <= 5; attempt++) {
            assertEquals(
                    DEFAULT_NOMINAL[attempt - 1], policy.nominalDelaySeconds(attempt, ErrorClass.SERVER_ERROR), 1e-9);
            assertEquals(DEFAULT_NOMINAL[attempt - 1], policy.delaySeconds(attempt, ErrorClass.TIMEOUT), 1e-9);
            assertEquals(
                    (int) DEFAULT_NOMINAL[attempt - 1],
                    policy.visibilityTimeoutSeconds(attempt, ErrorClass.CONNECTION));
            assertTrue(policy.hasAttemptsLeft(new S3Attempt(attempt)));
        }
        assertFalse(policy.hasAttemptsLeft(new S3Attempt(6)), "the 6th failed attempt is the last");
        assertFalse(policy.hasAttemptsLeft(new S3Attempt(7)));
    }

    /**
     * The original specification's rule, give-up-after-attempts 6: FAILED when the 6th attempt fails, after the
     * waits that follow attempts 1..5, 1 + 2 + 4 + 8 + 16 = 31 s nominal, each within +/- 200 ms (30 to 32 s in
     * all), and as whole-second visibility timeouts between 26 and 36 s, 31 s on average. Without the setting
     * no attempt gives up.
     */
    @Test
    void theSpecificationsGiveUpRuleEndsAfterSixAttemptsAndAbout31Seconds() {
        var giveUp =
                new BackoffPolicy(TestDelivery.defaults().giveUpAfterAttempts(6).build(), new SplittableRandom(42));
        for (int attempt = 1; attempt <= 5; attempt++) {
            assertFalse(giveUp.givesUpAfter(new S3Attempt(attempt)), "attempt " + attempt);
        }
        assertTrue(giveUp.givesUpAfter(new S3Attempt(6)));
        assertTrue(giveUp.givesUpAfter(new S3Attempt(7)), "a count past it (an uncounted attempt) gives up too");

        double nominalTotal = 0;
        for (int attempt = 1; attempt <= 5; attempt++) {
            nominalTotal += giveUp.nominalDelaySeconds(attempt, ErrorClass.SERVER_ERROR);
        }
        assertEquals(31, nominalTotal, 1e-9);
        Stats total = sample(i -> {
            double sum = 0;
            for (int attempt = 1; attempt <= 5; attempt++) {
                sum += giveUp.delaySeconds(attempt, ErrorClass.SERVER_ERROR);
            }
            return sum;
        });
        assertTrue(total.min >= 30 && total.max <= 32, "5 waits of +/- 200 ms each: " + total);
        assertEquals(31, total.mean, 0.01);
        Stats visibility = sample(i -> {
            int sum = 0;
            for (int attempt = 1; attempt <= 5; attempt++) {
                sum += giveUp.visibilityTimeoutSeconds(attempt, ErrorClass.SERVER_ERROR);
            }
            return sum;
        });
        assertTrue(visibility.min >= 26 && visibility.max <= 36, "each wait rounded to a whole second: " + visibility);
        assertEquals(31, visibility.mean, 0.02);

        BackoffPolicy never = policy(JitterStrategy.PLUS_MINUS);
        for (int attempt = 1; attempt <= 1000; attempt++) {
            assertFalse(never.givesUpAfter(new S3Attempt(attempt)), "the default never gives up: attempt " + attempt);
        }
    }

    @Test
    void throttlingHasTheLongerPerClassBase() {
        BackoffPolicy policy = policy(JitterStrategy.NONE);
        assertEquals(4, policy.nominalDelaySeconds(1, ErrorClass.THROTTLING), 1e-9);
        assertEquals(64, policy.nominalDelaySeconds(5, ErrorClass.THROTTLING), 1e-9);
        assertTrue(policy.nominalDelaySeconds(1, ErrorClass.THROTTLING)
                > policy.nominalDelaySeconds(1, ErrorClass.SERVER_ERROR));

        var configured = new BackoffPolicy(
                properties(
                        JitterStrategy.NONE,
                        Duration.ZERO,
                        Duration.ofSeconds(300),
                        Map.of(
                                ErrorClass.THROTTLING,
                                Duration.ofSeconds(10),
                                ErrorClass.DATABASE,
                                Duration.ofSeconds(3))),
                new SplittableRandom(42));
        assertEquals(10, configured.nominalDelaySeconds(1, ErrorClass.THROTTLING), 1e-9);
        assertEquals(6, configured.nominalDelaySeconds(2, ErrorClass.DATABASE), 1e-9);
        assertEquals(2, configured.nominalDelaySeconds(2, ErrorClass.SERVER_ERROR), 1e-9);
    }

    @Test
    void plusMinusJitterStaysWithin200msAndAveragesTheNominalDelay() {
        BackoffPolicy policy = policy(JitterStrategy.PLUS_MINUS);
        for (int attempt = 1; attempt <= 5; attempt++) {
            double nominal = DEFAULT_NOMINAL[attempt - 1];
            int a = attempt;
            Stats stats = sample(i -> policy.delaySeconds(a, ErrorClass.SERVER_ERROR));
            assertTrue(stats.min >= nominal - 0.2 && stats.max <= nominal + 0.2, "attempt " + attempt + ": " + stats);
            assertTrue(stats.max - stats.min > 0.39, "the whole +/- 200 ms range is used: " + stats);
            assertEquals(nominal, stats.mean, 0.005, "attempt " + attempt);
        }
    }

    @Test
    void fullJitterIsUniformBetweenZeroAndTheNominalDelay() {
        BackoffPolicy policy = policy(JitterStrategy.FULL);
        for (int attempt = 1; attempt <= 5; attempt++) {
            double nominal = DEFAULT_NOMINAL[attempt - 1];
            int a = attempt;
            Stats stats = sample(i -> policy.delaySeconds(a, ErrorClass.SERVER_ERROR));
            assertTrue(stats.min >= 0 && stats.max <= nominal, stats.toString());
            assertTrue(stats.min < 0.01 * nominal && stats.max > 0.99 * nominal, "uses the whole range: " + stats);
            // uniform on [0, n]: mean n/2, standard error n/sqrt(12 * SAMPLES) ~ 0.0009 n
            assertEquals(nominal / 2, stats.mean, 0.01 * nominal, "attempt " + attempt);
        }
    }

    @Test
    void decorrelatedJitterIsUniformBetweenBaseAndThreeTimesThePreviousDelay() {
        BackoffPolicy policy = policy(JitterStrategy.DECORRELATED);
        // previous = nominal(n-1), base for the first retry
        double[] previous = {1, 1, 2, 4, 8};
        for (int attempt = 1; attempt <= 5; attempt++) {
            double upper = 3 * previous[attempt - 1];
            int a = attempt;
            Stats stats = sample(i -> policy.delaySeconds(a, ErrorClass.SERVER_ERROR));
            assertTrue(stats.min >= 1 && stats.max <= upper, "attempt " + attempt + ": " + stats);
            assertEquals((1 + upper) / 2, stats.mean, 0.01 * upper, "attempt " + attempt);
        }
    }

    @Test
    void decorrelatedJitterIsCapped() {
        var policy = new BackoffPolicy(
                properties(JitterStrategy.DECORRELATED, Duration.ZERO, Duration.ofSeconds(10), null),
                new SplittableRandom(7));
        Stats stats = sample(i -> policy.delaySeconds(5, ErrorClass.SERVER_ERROR));
        assertTrue(stats.max <= 10, stats.toString());
        assertTrue(stats.min >= 1, stats.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"PLUS_MINUS", "FULL", "DECORRELATED", "NONE"})
    void everyStrategyRespectsTheMinimumAndTheCap(String strategy) {
        var policy = new BackoffPolicy(
                properties(JitterStrategy.valueOf(strategy), Duration.ofMillis(1500), Duration.ofSeconds(5), null),
                new SplittableRandom(3));
        for (int attempt = 1; attempt <= 8; attempt++) {
            int a = attempt;
            Stats stats = sample(i -> policy.delaySeconds(a, ErrorClass.SERVER_ERROR));
            assertTrue(stats.min >= 1.5 && stats.max <= 5, strategy + " attempt " + attempt + ": " + stats);
            Stats rounded = sample(i -> policy.visibilityTimeoutSeconds(a, ErrorClass.SERVER_ERROR));
            assertTrue(rounded.min >= 1 && rounded.max <= 5, strategy + " attempt " + attempt + ": " + rounded);
        }
    }

    @Test
    void probabilisticRoundingKeepsTheMeanOfAFractionalDelay() {
        var policy = new BackoffPolicy(
                TestDelivery.defaults()
                        .baseDelay(Duration.ofMillis(1300))
                        .jitter(JitterStrategy.NONE)
                        .plusMinusJitter(Duration.ZERO)
                        .build(),
                new SplittableRandom(11));
        Stats stats = sample(i -> policy.visibilityTimeoutSeconds(1, ErrorClass.SERVER_ERROR));
        assertEquals(1, stats.min);
        assertEquals(2, stats.max);
        // 2 s with probability 0.3: mean 1.3, standard error ~0.0015
        assertEquals(1.3, stats.mean, 0.01);
    }

    @ParameterizedTest
    @ValueSource(strings = {"PLUS_MINUS", "FULL", "DECORRELATED"})
    void wholeSecondRoundingKeepsTheMeanOfEachStrategy(String strategy) {
        var jitter = JitterStrategy.valueOf(strategy);
        for (int attempt = 1; attempt <= 5; attempt++) {
            int a = attempt;
            BackoffPolicy exact = policy(jitter);
            BackoffPolicy rounded = policy(jitter);
            Stats exactStats = sample(i -> exact.delaySeconds(a, ErrorClass.SERVER_ERROR));
            Stats roundedStats = sample(i -> rounded.visibilityTimeoutSeconds(a, ErrorClass.SERVER_ERROR));
            assertEquals(
                    exactStats.mean,
                    roundedStats.mean,
                    0.02 * Math.max(1, exactStats.mean),
                    strategy + " attempt " + attempt + ": exact " + exactStats + ", rounded " + roundedStats);
            assertEquals(Math.floor(roundedStats.min), roundedStats.min, "whole seconds");
        }
    }

    @Test
    void plusMinusJitterAroundOneSecondRoundsToZeroOneOrTwo() {
        BackoffPolicy policy = policy(JitterStrategy.PLUS_MINUS);
        Stats stats = sample(i -> policy.visibilityTimeoutSeconds(1, ErrorClass.SERVER_ERROR));
        assertTrue(stats.min >= 0 && stats.max <= 2, stats.toString());
        assertEquals(1.0, stats.mean, 0.01);
    }

    @Test
    void visibilityTimeoutsNeverExceedSqsLimit() {
        var policy = new BackoffPolicy(
                TestDelivery.defaults()
                        .maxAttempts(60)
                        .baseDelay(Duration.ofHours(1))
                        .multiplier(10.0)
                        .maxDelay(SqsLimits.MAX_VISIBILITY_TIMEOUT)
                        .plusMinusJitter(Duration.ofSeconds(5))
                        .build(),
                new SplittableRandom(5));
        for (int attempt = 1; attempt < 60; attempt++) {
            int seconds = policy.visibilityTimeoutSeconds(attempt, ErrorClass.SERVER_ERROR);
            assertTrue(seconds >= 0 && seconds <= SqsLimits.MAX_VISIBILITY_TIMEOUT_SECONDS, attempt + ": " + seconds);
        }
        // nominal far above the cap: the cap (SQS's 43,200 s) less at most the 5 s of jitter, never above it
        for (int draw = 0; draw < 1_000; draw++) {
            int capped = policy.visibilityTimeoutSeconds(59, ErrorClass.SERVER_ERROR);
            assertTrue(
                    capped >= SqsLimits.MAX_VISIBILITY_TIMEOUT_SECONDS - 5
                            && capped <= SqsLimits.MAX_VISIBILITY_TIMEOUT_SECONDS,
                    "draw " + draw + ": " + capped);
        }
    }

    @Test
    void theRandomSourceDecidesTheJitter() {
        var props = properties(JitterStrategy.PLUS_MINUS, Duration.ZERO, Duration.ofMinutes(5), null);
        var low = new BackoffPolicy(props, () -> 0L); // nextDouble() == 0
        var high = new BackoffPolicy(props, () -> -1L); // nextDouble() just below 1
        assertEquals(3.8, low.delaySeconds(3, ErrorClass.SERVER_ERROR), 1e-9);
        assertEquals(4.2, high.delaySeconds(3, ErrorClass.SERVER_ERROR), 1e-6);
        // 3.8 s: rounds up when the draw is below 0.8 (u = 0 is); 4.2 s: rounds up only when below 0.2 (u ~ 1 is not)
        assertEquals(4, low.visibilityTimeoutSeconds(3, ErrorClass.SERVER_ERROR));
        assertEquals(4, high.visibilityTimeoutSeconds(3, ErrorClass.SERVER_ERROR));
    }

    private static Stats sample(ToDoubleFunction<Integer> draw) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        double sum = 0;
        for (int i = 0; i < SAMPLES; i++) {
            double value = draw.applyAsDouble(i);
            min = Math.min(min, value);
            max = Math.max(max, value);
            sum += value;
        }
        return new Stats(min, max, sum / SAMPLES);
    }

    record Stats(double min, double max, double mean) {}
}
