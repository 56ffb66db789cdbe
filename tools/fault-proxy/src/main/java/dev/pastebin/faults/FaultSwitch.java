package dev.pastebin.faults;

import dev.pastebin.faults.FaultProxy.Fault;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The fault switched on for everyone ({@link Mode}: an outage, throttling, flakiness, the service down), until
 * switched off or its time is up, and the requests it hits: those the service can fault ({@link Service#faultable}),
 * every request for {@link Fault#DROP_CONNECTION}, a share of them for {@link Mode#FLAKY}.
 */
final class FaultSwitch {

    /** A fault switched on for everyone, until {@code until} (null: until switched off). */
    record Switched(Mode mode, Fault fault, double rate, Instant until) {
        static final Switched OFF = new Switched(Mode.OFF, null, 0, null);

        boolean expired() {
            return until != null && !Instant.now().isBefore(until);
        }
    }

    private final Service service;
    private volatile Switched switched = Switched.OFF;

    FaultSwitch(Service service) {
        this.service = service;
    }

    /** {@code fault} for every request the service can fault, until switched off. */
    void outage(Fault fault) {
        switched = new Switched(Mode.OUTAGE, fault, 1.0, null);
    }

    /** Switches {@code mode} on at {@code rate} (used by FLAKY only) for {@code lasting} (null: until switched off). */
    void switchOn(Mode mode, double rate, Duration lasting) {
        if (!(rate >= 0.0 && rate <= 1.0)) {
            throw new IllegalArgumentException("rate is a share in [0, 1], not " + rate);
        }
        if (lasting != null && !lasting.isPositive()) {
            throw new IllegalArgumentException("a fault lasts a positive time, not " + lasting);
        }
        if (mode == Mode.OFF) {
            off();
            return;
        }
        switched = new Switched(
                mode,
                service.faultOf(mode),
                mode == Mode.FLAKY ? rate : 1.0,
                lasting == null ? null : Instant.now().plus(lasting));
    }

    void off() {
        switched = Switched.OFF;
    }

    /** The switched-on fault; one whose time is up reads as off. */
    Switched current() {
        Switched current = switched;
        return current.expired() ? Switched.OFF : current;
    }

    /** The switched-on fault if it hits {@code request} (for FLAKY, a roll of the dice), else null. */
    Fault faultFor(Request request) {
        Switched current = current();
        if (current.fault() != null
                && (current.fault() == Fault.DROP_CONNECTION || service.faultable(request))
                && (current.rate() >= 1.0 || ThreadLocalRandom.current().nextDouble() < current.rate())) {
            return current.fault();
        }
        return null;
    }
}
