package dev.pastebin.chaos;

import java.util.EnumSet;
import java.util.Set;

/** What the suite breaks, and which API routes may answer 503 while it is broken. */
public enum FaultKind {
    S3_ERRORS("S3 5xx", "object PUTs answered 500 InternalError", EnumSet.noneOf(Route.class)),
    S3_THROTTLING("S3 throttling", "object PUTs answered 503 SlowDown", EnumSet.noneOf(Route.class)),
    S3_DOWN("S3 down", "every S3 connection dropped unanswered (reads need S3 too)", EnumSet.of(Route.READ)),
    POSTGRES_STOPPED(
            "PostgreSQL stopped",
            "the suite's own cluster stopped (pg_ctlcluster stop -m fast)",
            EnumSet.allOf(Route.class)),
    UPLOAD_KILLED(
            "upload SIGKILL",
            "every upload function process killed with SIGKILL while batches run",
            EnumSet.noneOf(Route.class)),
    SQS_UNAVAILABLE(
            "SQS unavailable",
            "every SQS call answered 503 ServiceUnavailable (creates cannot enqueue)",
            EnumSet.of(Route.CREATE)),
    BURST("burst", "creates at several times the steady rate", EnumSet.noneOf(Route.class));

    /** The two routes the load drives. */
    public enum Route {
        CREATE,
        READ
    }

    private final String label;
    private final String description;

    @SuppressWarnings("ImmutableEnumChecker") // Set.copyOf is unmodifiable
    private final Set<Route> unavailableRoutes;

    FaultKind(String label, String description, Set<Route> unavailableRoutes) {
        this.label = label;
        this.description = description;
        this.unavailableRoutes = Set.copyOf(unavailableRoutes);
    }

    public String label() {
        return label;
    }

    public String description() {
        return description;
    }

    /** Routes whose dependency this fault takes away: a 503 from them during the window is planned. */
    public boolean makesUnavailable(Route route) {
        return unavailableRoutes.contains(route);
    }
}
