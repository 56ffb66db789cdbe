package dev.pastebin.chaos;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pastebin.local.template.CloudFormationTemplate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class BudgetTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private final Budget budget = new Budget(6, Duration.ofSeconds(180));

    @Test
    void theTemplateGivesTheAttemptsAndTheVisibilityTimeout() {
        Budget fromTemplate = Budget.of(
                CloudFormationTemplate.load(ChaosSuite.repositoryRoot().resolve("infra/template.yaml")));
        assertEquals(new Budget(6, Duration.ofSeconds(360)), fromTemplate);
    }

    @Test
    void withoutAFaultAPasteHasTheSteadyBudget() {
        assertEquals(at(120), budget.deadline(T0, at(5), List.of()));
    }

    @Test
    void aFaultThatStartsWhileThePasteIsInProgressExtendsItToItsEndPlusItsRecovery() {
        FaultWindow s3 = window(FaultKind.S3_ERRORS, 10, 70);
        assertEquals(at(70 + 140 + 120), budget.deadline(T0, at(100), List.of(s3)));

        FaultWindow killed = window(FaultKind.UPLOAD_KILLED, 20, 21);
        assertEquals(at(21 + 180 + 120), budget.deadline(T0, at(100), List.of(killed)));
    }

    @Test
    void aFaultAfterThePasteWasTerminalOrBeyondItsBudgetDoesNotExtendIt() {
        FaultWindow later = window(FaultKind.S3_DOWN, 30, 200);
        assertEquals(at(120), budget.deadline(T0, at(20), List.of(later)), "terminal before the fault started");
        FaultWindow beyond = window(FaultKind.S3_DOWN, 150, 300);
        assertEquals(at(120), budget.deadline(T0, at(200), List.of(beyond)), "started after the budget ended");
    }

    @Test
    void faultsChainWhileThePasteStaysInProgress() {
        FaultWindow db = window(FaultKind.POSTGRES_STOPPED, 10, 20); // budget -> 20 + 120 = 140
        FaultWindow sqs = window(FaultKind.SQS_UNAVAILABLE, 130, 140); // starts before 140 -> 140 + 180 + 120
        assertEquals(at(140 + 300), budget.deadline(T0, at(400), List.of(db, sqs)));
    }

    private static FaultWindow window(FaultKind kind, int fromSeconds, int toSeconds) {
        return new FaultWindow(
                new ChaosSchedule.Fault(
                        kind, Duration.ofSeconds(fromSeconds), Duration.ofSeconds(toSeconds - fromSeconds)),
                at(fromSeconds),
                at(toSeconds),
                "");
    }

    private static Instant at(int seconds) {
        return T0.plusSeconds(seconds);
    }
}
