package dev.pastebin.core.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pastebin.core.paste.HeldDelivery;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReleasePlanTest {

    private static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");

    private static List<HeldDelivery> heldFor(int count, Duration hold) {
        var held = new ArrayList<HeldDelivery>();
        for (int i = 0; i < count; i++) {
            held.add(new HeldDelivery("code" + i, "handle" + i, NOW.plus(hold)));
        }
        return held;
    }

    @Test
    void theWindowIsTheBacklogOverTheRate() {
        var plan = new ReleasePlan(200);
        assertEquals(Duration.ofSeconds(25), plan.window(5_000));
        assertEquals(Duration.ofMillis(5), plan.window(1));
        assertEquals(Duration.ZERO, plan.window(0));
    }

    @Test
    void eachJobIsVisibleAfterItsPositionOverTheRateTheLongestWaitingFirst() {
        var page = new ReleasePlan(4).plan(heldFor(10, Duration.ofMinutes(5)), 0, NOW, NOW);

        assertEquals(
                List.of(0, 0, 0, 0, 1, 1, 1, 1, 2, 2),
                page.releases().stream().map(ReleasePlan.Release::seconds).toList());
        assertEquals(
                List.of("handle0", "handle9"),
                List.of(
                        page.releases().getFirst().held().heldReceiptHandle(),
                        page.releases().getLast().held().heldReceiptHandle()));
        assertEquals(List.of(), page.backSoonerAnyway());
    }

    @Test
    void aLaterPageContinuesTheSpreadFromItsPositionInTheBacklog() {
        var page = new ReleasePlan(200).plan(heldFor(3, Duration.ofMinutes(5)), 4_999, NOW, NOW);

        assertEquals(
                List.of(24, 25, 25),
                page.releases().stream().map(ReleasePlan.Release::seconds).toList());
    }

    @Test
    void aLaterInvocationContinuingTheReleaseKeepsTheSpreadFromTheClose() {
        // 10 s after the close of a release at 200 a second: positions 1,000 and 1,001 (their turns 5 s after the
        // close) come at once, position 3,000 (15 s after it) in 5 s
        var page = new ReleasePlan(200)
                .plan(
                        List.of(
                                new HeldDelivery("passed", "h1", NOW.plusSeconds(300)),
                                new HeldDelivery("now", "h2", NOW.plusSeconds(300))),
                        1_000,
                        NOW.minusSeconds(10),
                        NOW);
        assertEquals(
                List.of(0, 0),
                page.releases().stream().map(ReleasePlan.Release::seconds).toList());

        var later = new ReleasePlan(200).plan(heldFor(1, Duration.ofMinutes(5)), 3_000, NOW.minusSeconds(10), NOW);
        assertEquals(
                List.of(5),
                later.releases().stream().map(ReleasePlan.Release::seconds).toList());
    }

    @Test
    void aJobWhoseOwnHoldEndsBeforeItsTurnIsLeftToIt() {
        var held = new ArrayList<>(heldFor(2, Duration.ofMinutes(5)));
        held.add(new HeldDelivery("soon", "handle-soon", NOW.plusSeconds(1)));
        held.add(new HeldDelivery("later", "handle-later", NOW.plusSeconds(10)));

        var page = new ReleasePlan(1).plan(held, 0, NOW, NOW);

        assertEquals(
                List.of("handle0", "handle1", "handle-later"),
                page.releases().stream().map(r -> r.held().heldReceiptHandle()).toList());
        assertEquals(
                List.of(0, 1, 3),
                page.releases().stream().map(ReleasePlan.Release::seconds).toList());
        assertEquals(
                List.of("soon"),
                page.backSoonerAnyway().stream().map(HeldDelivery::shortCode).toList());
    }

    @Test
    void aReleaseNeverKeepsAJobAwayLongerThanItsOwnHold() {
        var page = new ReleasePlan(1).plan(heldFor(1, SqsLimits.MAX_VISIBILITY_TIMEOUT), 50_000, NOW, NOW);

        assertEquals(List.of(), page.releases());
        assertEquals(1, page.backSoonerAnyway().size());
    }
}
