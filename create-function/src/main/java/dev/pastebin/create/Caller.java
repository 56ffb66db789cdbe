package dev.pastebin.create;

import dev.pastebin.api.create.CreateCredential;
import io.micronaut.core.annotation.Nullable;

/**
 * Who posted the request: the authenticated user's id, or anonymous, and the credential it presented. Bound to
 * controller arguments by {@link CallerBinder}, so a controller never reads API Gateway's authorizer claims or the
 * Authorization header itself.
 *
 * @param userId     the user's id ({@code sub} of the JWT), or {@code null} for an anonymous caller
 * @param credential its {@code Authorization: Bearer} credential, checked when the operator requires an API key
 */
public record Caller(@Nullable String userId, CreateCredential credential) {

    public static final Caller ANONYMOUS = new Caller(null);

    /** A caller without a credential. */
    public Caller(@Nullable String userId) {
        this(userId, CreateCredential.NONE);
    }
}
