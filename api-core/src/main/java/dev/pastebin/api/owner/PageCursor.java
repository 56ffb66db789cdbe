package dev.pastebin.api.owner;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import dev.pastebin.core.paste.InvalidPageCursorException;
import io.micronaut.core.annotation.Nullable;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;

/**
 * Where a page of the owner's listing ends: the last paste's creation time and code, the listing's order (newest
 * first, codes descending among pastes created in the same microsecond). The next page is the pastes strictly
 * before it in that order (a keyset page: no offset, so a page costs the same however deep, and a paste created or
 * deleted meanwhile shifts nothing). Given to the client opaque: base64url of {@code <epoch microseconds>.<code>}.
 *
 * @param createdAt in microseconds, PostgreSQL's precision
 */
public record PageCursor(Instant createdAt, String shortCode) {

    /** Far more than a cursor this class writes (about 36 characters): a longer value is refused unread. */
    static final int MAX_LENGTH = 64;

    /** What a decoded cursor holds; short codes have 8 or 11 characters of 0-9, A-Z, a-z. Linear time (re2j). */
    private static final Pattern DECODED = Pattern.compile("(-?[0-9]{1,19})\\.([0-9A-Za-z]{8}|[0-9A-Za-z]{11})");

    public PageCursor {
        createdAt = createdAt.truncatedTo(ChronoUnit.MICROS);
    }

    public String encode() {
        long micros = ChronoUnit.MICROS.between(Instant.EPOCH, createdAt);
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString((micros + "." + shortCode).getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * @param after the client's {@code after}, or null (the first page)
     * @return null for the first page
     * @throws InvalidPageCursorException when {@code after} is not a cursor {@link #encode} wrote
     */
    public static @Nullable PageCursor parse(@Nullable String after) {
        if (after == null) {
            return null;
        }
        if (after.isEmpty() || after.length() > MAX_LENGTH) {
            throw invalid();
        }
        String decoded;
        try {
            decoded = new String(Base64.getUrlDecoder().decode(after), StandardCharsets.US_ASCII);
        } catch (IllegalArgumentException e) {
            throw invalid();
        }
        Matcher parts = DECODED.matcher(decoded);
        if (!parts.matches()) {
            throw invalid();
        }
        try {
            long micros = Long.parseLong(parts.group(1));
            return new PageCursor(Instant.EPOCH.plus(micros, ChronoUnit.MICROS), parts.group(2));
        } catch (NumberFormatException | DateTimeException | ArithmeticException e) {
            throw invalid();
        }
    }

    private static InvalidPageCursorException invalid() {
        return new InvalidPageCursorException(
                "after is not a cursor this pastebin gave: pass the previous page's next as it is");
    }
}
