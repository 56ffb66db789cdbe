package dev.pastebin.api.create;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import dev.pastebin.core.paste.InvalidExpiryException;
import dev.pastebin.core.paste.InvalidReadOnceException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.json.tree.JsonNode;
import java.math.BigInteger;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Set;

/**
 * The options of a create: a lifetime in whole seconds (none: the paste does not expire) and read-once. Given
 * as JSON fields ({@code "expiresIn": 3600, "readOnce": true}) or, with a text/plain body, as query parameters
 * ({@code ?expiresIn=3600&readOnce=true}); parsed strictly, with no coercion between types. Anything else is
 * refused in the domain's words ({@link InvalidExpiryException}, {@link InvalidReadOnceException}), as an
 * invalid label is: core.http alone says how a refusal is answered.
 *
 * @param expiresInSeconds {@code null} for a paste that does not expire
 */
public record PasteOptions(@Nullable Integer expiresInSeconds, boolean readOnce) {

    public static final PasteOptions NONE = new PasteOptions(null, false);
    public static final int MIN_EXPIRES_IN_SECONDS = 60;
    /** One year. */
    public static final int MAX_EXPIRES_IN_SECONDS = 31_536_000;

    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,10}");
    /** An amount and a unit word, the word checked against {@link #DURATION_UNITS} (RE2/J has no look-ahead). */
    private static final Pattern DURATION_TERM =
            Pattern.compile("\\s*([0-9]{1,10})\\s*([a-z]+)", Pattern.CASE_INSENSITIVE);

    private static final Set<String> DURATION_UNITS = Set.of(
            "second", "seconds", "sec", "secs", "s", "minute", "minutes", "min", "mins", "m", "hour", "hours", "hr",
            "hrs", "h", "day", "days", "d", "week", "weeks", "w", "month", "months", "year", "years", "y");
    private static final String EXPIRY_RULE = "expiresIn must be a whole number of seconds from "
            + MIN_EXPIRES_IN_SECONDS + " to " + MAX_EXPIRES_IN_SECONDS + " (one year)";
    private static final String READ_ONCE_RULE = "readOnce must be true or false";

    /** When a paste created at {@code now} expires, or {@code null}; in milliseconds, as the API shows it. */
    @Nullable
    public Instant expiresAt(Instant now) {
        return expiresInSeconds == null
                ? null
                : now.plusSeconds(expiresInSeconds).truncatedTo(ChronoUnit.MILLIS);
    }

    public static PasteOptions fromQuery(@Nullable String expiresIn, @Nullable String readOnce) {
        Integer seconds = null;
        if (expiresIn != null) {
            if (!DIGITS.matcher(expiresIn).matches()) {
                throw invalidExpiry();
            }
            seconds = inRange(Long.parseLong(expiresIn));
        }
        boolean once = false;
        if (readOnce != null) {
            once = switch (readOnce) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new InvalidReadOnceException(READ_ONCE_RULE);
            };
        }
        return new PasteOptions(seconds, once);
    }

    /**
     * The options of command-line clients' conventions: rustypaste's {@code expire} header, a duration such as
     * {@code 10min}, {@code 1h 30m} or {@code 7d}; 0x0.st's {@code expires} field, in whole hours; read once
     * for rustypaste's {@code oneshot} part. Both given: the header wins, as it is the more precise.
     */
    public static PasteOptions fromClientConventions(
            @Nullable String expireDuration, @Nullable String expiresHours, boolean readOnce) {
        Integer seconds = null;
        if (expireDuration != null) {
            long duration = durationSeconds(expireDuration);
            if (duration < MIN_EXPIRES_IN_SECONDS || duration > MAX_EXPIRES_IN_SECONDS) {
                throw invalidExpire();
            }
            seconds = (int) duration;
        } else if (expiresHours != null) {
            if (!DIGITS.matcher(expiresHours).matches()) {
                throw invalidExpiresHours();
            }
            long hours = Long.parseLong(expiresHours);
            if (hours < 1 || hours * 3600 > MAX_EXPIRES_IN_SECONDS) {
                throw invalidExpiresHours();
            }
            seconds = (int) (hours * 3600);
        }
        return new PasteOptions(seconds, readOnce);
    }

    /**
     * A sum of whole amounts with units, as humans and rustypaste's client write them. Each term must start where
     * the last ended (lookingAt, not find: a search from every position would cost a long header its square).
     */
    private static long durationSeconds(String duration) {
        String terms = duration.strip();
        Matcher term = DURATION_TERM.matcher(terms);
        long seconds = 0;
        int end = 0;
        while (end < terms.length() && term.find(end) && term.start() == end) {
            String unit = term.group(2).toLowerCase(Locale.ROOT);
            if (!DURATION_UNITS.contains(unit)) {
                throw invalidExpire();
            }
            long amount = Long.parseLong(term.group(1));
            seconds += amount
                    * switch (unit.charAt(0)) {
                        case 's' -> 1;
                        case 'm' -> unit.startsWith("mo") ? 30 * 86_400 : 60;
                        case 'h' -> 3_600;
                        case 'd' -> 86_400;
                        case 'w' -> 7 * 86_400;
                        default -> 365 * 86_400; // y
                    };
            if (seconds > MAX_EXPIRES_IN_SECONDS) {
                break;
            }
            end = term.end();
        }
        if (end == 0 || end != terms.length()) {
            throw invalidExpire();
        }
        return seconds;
    }

    private static InvalidExpiryException invalidExpiresHours() {
        return new InvalidExpiryException("expires must be a whole number of hours from 1 to 8760");
    }

    private static InvalidExpiryException invalidExpire() {
        return new InvalidExpiryException(
                "expire must be a duration such as 10min, 1h 30m or 7d, " + "from 1 minute to one year");
    }

    /** {@code null} fields (absent or JSON null) mean the default. */
    public static PasteOptions fromJson(@Nullable JsonNode expiresIn, @Nullable JsonNode readOnce) {
        Integer seconds = null;
        if (expiresIn != null && !expiresIn.isNull()) {
            if (!expiresIn.isNumber() || !isIntegral(expiresIn.getNumberValue())) {
                throw invalidExpiry();
            }
            BigInteger value = new BigInteger(expiresIn.getNumberValue().toString());
            seconds = inRange(value.bitLength() < 63 ? value.longValue() : Long.MAX_VALUE);
        }
        boolean once = false;
        if (readOnce != null && !readOnce.isNull()) {
            if (!readOnce.isBoolean()) {
                throw new InvalidReadOnceException(READ_ONCE_RULE);
            }
            once = readOnce.getBooleanValue();
        }
        return new PasteOptions(seconds, once);
    }

    /** A JSON integer; 3600.0 or 3.6e3 are not whole seconds as written. */
    private static boolean isIntegral(Number number) {
        return number instanceof Integer
                || number instanceof Long
                || number instanceof Short
                || number instanceof Byte
                || number instanceof BigInteger;
    }

    private static int inRange(long seconds) {
        if (seconds < MIN_EXPIRES_IN_SECONDS || seconds > MAX_EXPIRES_IN_SECONDS) {
            throw invalidExpiry();
        }
        return (int) seconds;
    }

    private static InvalidExpiryException invalidExpiry() {
        return new InvalidExpiryException(EXPIRY_RULE);
    }
}
