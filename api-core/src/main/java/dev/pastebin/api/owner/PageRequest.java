package dev.pastebin.api.owner;

import dev.pastebin.core.paste.InvalidPageLimitException;
import io.micronaut.core.annotation.Nullable;

/**
 * One page of the owner's listing as asked: at most {@code limit} pastes, after {@code after} (null: from the newest).
 * The limit is bounded so that one page is one short index range scan and a small answer.
 */
public record PageRequest(int limit, @Nullable PageCursor after) {

    public static final int DEFAULT_LIMIT = 50;
    public static final int MAX_LIMIT = 200;

    public PageRequest {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw invalidLimit();
        }
    }

    /**
     * The query's {@code limit} and {@code after} as the client sent them (null when absent).
     *
     * @throws InvalidPageLimitException                            when {@code limit} is not a whole number from 1 to
     *                                                              {@value #MAX_LIMIT}
     * @throws dev.pastebin.core.paste.InvalidPageCursorException when {@code after} is not a cursor a page gave
     */
    public static PageRequest of(@Nullable String limit, @Nullable String after) {
        return new PageRequest(limit == null ? DEFAULT_LIMIT : parseLimit(limit), PageCursor.parse(after));
    }

    private static int parseLimit(String limit) {
        // at most 3 digits: anything longer is out of range, and is refused before it is parsed
        if (limit.isEmpty() || limit.length() > 3 || !limit.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw invalidLimit();
        }
        return Integer.parseInt(limit);
    }

    private static InvalidPageLimitException invalidLimit() {
        return new InvalidPageLimitException(
                "limit is a whole number from 1 to " + MAX_LIMIT + " (default " + DEFAULT_LIMIT + ")");
    }
}
