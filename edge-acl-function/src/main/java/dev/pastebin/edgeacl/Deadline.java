package dev.pastebin.edgeacl;

import java.time.Duration;

/**
 * How long the function may wait for the stack: its remaining time less a margin kept for describing the stack and
 * answering CloudFormation. A wait cut short by it is answered FAILED; without an answer CloudFormation would wait an
 * hour.
 */
final class Deadline {

    private Deadline() {}

    /** The time left for waiting; zero when the margin takes all of it (then nothing is started). */
    static Duration waitBudget(Duration remaining, Duration margin) {
        Duration budget = remaining.minus(margin);
        return budget.isNegative() ? Duration.ZERO : budget;
    }
}
