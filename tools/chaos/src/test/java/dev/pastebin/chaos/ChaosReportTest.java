package dev.pastebin.chaos;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Which figures fail a run in each mode, and how the table shows it. */
class ChaosReportTest {

    @ParameterizedTest
    @EnumSource(Strictness.class)
    void aCleanRunPasses(Strictness mode) {
        assertTrue(report(mode, "late", 0).passed());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "lost",
                "stuck",
                "wrongBytes",
                "failed",
                "fiveXxNotDocumented",
                "unexpectedAnswers",
                "queueDepth",
                "deadLetterDepth",
                "rowsInProgress"
            })
    void aCorrectnessCheckFailsTheRunInEveryMode(String figure) {
        for (Strictness mode : Strictness.values()) {
            assertFalse(report(mode, figure, 1).passed(), figure + " in " + mode);
        }
    }

    @Test
    void noPasteAtAllFailsTheRunInEveryMode() {
        for (Strictness mode : Strictness.values()) {
            assertFalse(report(mode, "pastes", 0).passed(), mode.name());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"late", "fiveXxOutside"})
    void aTimingCheckFailsOnlyAStrictRun(String figure) {
        ChaosReport strict = report(Strictness.STRICT, figure, 3);
        assertFalse(strict.passed());
        assertTrue(strict.table().contains("| 3 | **NO** |"), strict.table());

        ChaosReport correctness = report(Strictness.CORRECTNESS, figure, 3);
        assertTrue(correctness.passed());
        assertFalse(correctness.timingHolds());
        assertTrue(correctness.table().contains("| 3 | no (timing: reported only) |"), correctness.table());
        assertFalse(correctness.table().contains("**NO**"), correctness.table());
    }

    @ParameterizedTest
    @EnumSource(Strictness.class)
    void theTableHeaderNamesTheMode(Strictness mode) {
        assertTrue(report(mode, "late", 0).table().startsWith("| check (" + mode.label() + ") |"));
    }

    /** A clean run of 100 pastes with one figure set to {@code value}. */
    private static ChaosReport report(Strictness mode, String figure, int value) {
        RecordComponent[] components = ChaosReport.Figures.class.getRecordComponents();
        if (Arrays.stream(components).noneMatch(c -> c.getName().equals(figure))) {
            throw new IllegalArgumentException("no figure " + figure);
        }
        Object[] values = Arrays.stream(components)
                .map(c -> {
                    if (c.getType() == Duration.class) {
                        return Duration.ZERO;
                    } else if (c.getType() == Map.class) {
                        return Map.of();
                    }
                    return c.getName().equals(figure) ? value : c.getName().equals("pastes") ? 100 : 0;
                })
                .toArray();
        try {
            var figures = ChaosReport.Figures.class
                    .getDeclaredConstructor(Arrays.stream(components)
                            .map(RecordComponent::getType)
                            .toArray(Class[]::new))
                    .newInstance(values);
            return new ChaosReport(
                    ChaosSchedule.quick(),
                    new Budget(6, Duration.ofSeconds(360)),
                    mode,
                    Instant.EPOCH,
                    List.of(),
                    figures,
                    List.of());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
