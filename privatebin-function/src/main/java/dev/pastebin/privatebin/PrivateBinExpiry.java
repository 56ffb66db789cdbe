package dev.pastebin.privatebin;

import io.micronaut.core.annotation.Nullable;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * PrivateBin's {@code meta.expire} values, with the lifetimes PrivateBin gives them (its default
 * {@code expire_options}), as this system's expiry: the row's {@code expires_at}, which reads, the sweeper and
 * the upload worker honour as for every paste. {@code never} is a paste without an expiry.
 */
enum PrivateBinExpiry {
    FIVE_MINUTES("5min", 300),
    TEN_MINUTES("10min", 600),
    ONE_HOUR("1hour", 3_600),
    ONE_DAY("1day", 86_400),
    ONE_WEEK("1week", 604_800),
    ONE_MONTH("1month", 2_592_000),
    ONE_YEAR("1year", 31_536_000),
    NEVER("never", 0);

    /** The values, as PrivateBin's page lists them. */
    static final String NAMES =
            Arrays.stream(values()).map(PrivateBinExpiry::value).collect(Collectors.joining(", "));

    private final String value;
    private final int seconds;

    PrivateBinExpiry(String value, int seconds) {
        this.value = value;
        this.seconds = seconds;
    }

    static Optional<PrivateBinExpiry> of(String value) {
        return Arrays.stream(values()).filter(e -> e.value.equals(value)).findFirst();
    }

    String value() {
        return value;
    }

    /** The paste's lifetime in seconds, {@code null} for {@link #NEVER}. */
    @Nullable
    Integer lifetimeSeconds() {
        return seconds == 0 ? null : seconds;
    }
}
