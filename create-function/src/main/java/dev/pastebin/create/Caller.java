package dev.pastebin.create;

import io.micronaut.core.annotation.Nullable;

/**
 * Who posted the request: the authenticated user's id, or anonymous. Bound to controller arguments by
 * {@link CallerBinder}, so a controller never reads API Gateway's authorizer claims itself.
 *
 * @param userId the user's id ({@code sub} of the JWT), or {@code null} for an anonymous caller
 */
public record Caller(@Nullable String userId) {

    public static final Caller ANONYMOUS = new Caller(null);
}
