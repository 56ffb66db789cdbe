package dev.pastebin.core.support;

import dev.pastebin.core.delivery.DeliveryProperties;
import dev.pastebin.core.delivery.JitterStrategy;
import dev.pastebin.core.failure.ErrorClass;
import java.time.Duration;
import java.util.Map;

/** {@link DeliveryProperties} for tests: the defaults, with the settings a test changes. */
public final class TestDelivery {

    private int maxAttempts = 6;
    private Duration baseDelay = Duration.ofSeconds(1);
    private double multiplier = 2.0;
    private Duration maxDelay = Duration.ofMinutes(5);
    private Duration minDelay = Duration.ZERO;
    private JitterStrategy jitter = JitterStrategy.PLUS_MINUS;
    private Duration plusMinusJitter = Duration.ofMillis(200);
    private Map<ErrorClass, Duration> classBaseDelays;
    private int giveUpAfterAttempts = 0;
    private Duration holdAtLeast = Duration.ofSeconds(15);
    private Duration holdJitter = Duration.ofSeconds(5);
    private Duration maxHold = Duration.ofMinutes(5);
    private Duration holdLimit = Duration.ofHours(24);
    private boolean releaseEnabled = true;
    private int releaseRate = 1000;
    private int releaseParallelism = 8;
    private int heldDeliveryRate = 100;
    private Duration maxBacklogHold = Duration.ofMinutes(15);

    private TestDelivery() {}

    /** The production defaults (DeliveryPropertiesTest holds them to the binding's). */
    public static TestDelivery defaults() {
        return new TestDelivery();
    }

    public TestDelivery maxAttempts(int value) {
        maxAttempts = value;
        return this;
    }

    public TestDelivery baseDelay(Duration value) {
        baseDelay = value;
        return this;
    }

    public TestDelivery multiplier(double value) {
        multiplier = value;
        return this;
    }

    public TestDelivery maxDelay(Duration value) {
        maxDelay = value;
        return this;
    }

    public TestDelivery minDelay(Duration value) {
        minDelay = value;
        return this;
    }

    public TestDelivery jitter(JitterStrategy value) {
        jitter = value;
        return this;
    }

    public TestDelivery plusMinusJitter(Duration value) {
        plusMinusJitter = value;
        return this;
    }

    public TestDelivery classBaseDelays(Map<ErrorClass, Duration> value) {
        classBaseDelays = value;
        return this;
    }

    public TestDelivery giveUpAfterAttempts(int value) {
        giveUpAfterAttempts = value;
        return this;
    }

    public TestDelivery holdAtLeast(Duration value) {
        holdAtLeast = value;
        return this;
    }

    public TestDelivery holdJitter(Duration value) {
        holdJitter = value;
        return this;
    }

    public TestDelivery maxHold(Duration value) {
        maxHold = value;
        return this;
    }

    public TestDelivery holdLimit(Duration value) {
        holdLimit = value;
        return this;
    }

    public TestDelivery releaseEnabled(boolean value) {
        releaseEnabled = value;
        return this;
    }

    public TestDelivery releaseRate(int value) {
        releaseRate = value;
        return this;
    }

    public TestDelivery releaseParallelism(int value) {
        releaseParallelism = value;
        return this;
    }

    public TestDelivery heldDeliveryRate(int value) {
        heldDeliveryRate = value;
        return this;
    }

    public TestDelivery maxBacklogHold(Duration value) {
        maxBacklogHold = value;
        return this;
    }

    public DeliveryProperties build() {
        return new DeliveryProperties(
                maxAttempts,
                baseDelay,
                multiplier,
                maxDelay,
                minDelay,
                jitter,
                plusMinusJitter,
                classBaseDelays,
                giveUpAfterAttempts,
                holdAtLeast,
                holdJitter,
                maxHold,
                holdLimit,
                releaseEnabled,
                releaseRate,
                releaseParallelism,
                heldDeliveryRate,
                maxBacklogHold);
    }
}
