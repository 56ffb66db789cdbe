package dev.pastebin.core.delivery;

import dev.pastebin.core.paste.HeldDelivery;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * When each released job comes back: the backlog, longest waiting first, spread over a window of backlog / rate
 * seconds from the close, the job at position p visible p / rate seconds after the close (at once for a job whose turn
 * has passed when a later invocation continues the release). A job whose own hold ends before its turn, as noted, is
 * left to it (releasing it would only keep it away longer), so no release exceeds a hold as noted (nor SQS's longest
 * visibility timeout). A hold noted before it was decided notes its longest possible end, max-hold and its jitter.
 */
public final class ReleasePlan {

    /** A visibility change for one held message: visible again {@code seconds} from now. */
    public record Release(HeldDelivery held, int seconds) {}

    /** The releases of one page of held deliveries, and the ones that come back by themselves no later than their turn. */
    public record Page(List<Release> releases, List<HeldDelivery> backSoonerAnyway) {}

    private final int rate;

    /** {@code rate}: {@code pastebin.delivery.release-rate}, released jobs a second. */
    public ReleasePlan(int rate) {
        this.rate = rate;
    }

    /** The whole release's length for {@code backlog} held jobs. */
    public Duration window(long backlog) {
        return Duration.ofMillis(Math.ceilDiv(backlog * 1000, rate));
    }

    /**
     * Plans {@code page}, whose first delivery has position {@code firstPosition} in the whole backlog of the release
     * that began at {@code releaseFrom}, at {@code now}.
     */
    public Page plan(List<HeldDelivery> page, long firstPosition, Instant releaseFrom, Instant now) {
        var releases = new ArrayList<Release>();
        var backSooner = new ArrayList<HeldDelivery>();
        long sinceRelease = Duration.between(releaseFrom, now).toMillis();
        for (int i = 0; i < page.size(); i++) {
            HeldDelivery held = page.get(i);
            long turn = Math.max(0, Math.floorDiv((firstPosition + i) * 1000 / rate - sinceRelease, 1000));
            long ownHoldLeft =
                    Math.ceilDiv(Duration.between(now, held.heldUntil()).toMillis(), 1000);
            if (ownHoldLeft <= turn) {
                backSooner.add(held);
            } else {
                releases.add(new Release(held, (int) turn));
            }
        }
        return new Page(releases, backSooner);
    }
}
