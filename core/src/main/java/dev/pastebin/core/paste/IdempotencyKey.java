package dev.pastebin.core.paste;

import com.google.re2j.Pattern;
import io.micronaut.core.annotation.Nullable;
import java.time.Duration;

/**
 * The {@code Idempotency-Key} of a create, scoped to its caller: two callers may use the same key. Anonymous
 * callers share one scope, so their keys must be unguessable (a UUID, as the web page sends): the key is then
 * all that ties a retry to its first request.
 *
 * @param caller the user id, or {@code ""} for anonymous callers
 * @param key    1 to 128 characters of {@code [A-Za-z0-9_.:-]}
 */
public record IdempotencyKey(String caller, String key) {

    /** How long a key answers with its paste; the sweeper deletes older keys, and create ignores them. */
    public static final Duration RETENTION = Duration.ofHours(24);

    private static final Pattern SYNTAX = Pattern.compile("[A-Za-z0-9_.:-]{1,128}");

    /** The key of a request, or {@code null} when it sent none; refused when malformed. */
    @Nullable
    public static IdempotencyKey of(@Nullable String header, @Nullable String userId) {
        if (header == null) {
            return null;
        }
        if (!SYNTAX.matcher(header).matches()) {
            throw new InvalidIdempotencyKeyException(
                    "Idempotency-Key must be 1 to 128 characters of A-Z, a-z, 0-9, '_', '.', ':', '-'");
        }
        return new IdempotencyKey(userId == null ? "" : userId, header);
    }
}
