package dev.pastebin.create;

import dev.pastebin.api.create.ClientAddress;
import dev.pastebin.api.create.CreateCredential;
import io.micronaut.core.annotation.Nullable;

/**
 * Who posted the request: the authenticated user's id, or anonymous, the credential it presented and the address it
 * came from. Bound to controller arguments by {@link CallerBinder}, so a controller never reads API Gateway's
 * authorizer claims, its source address or the Authorization header itself.
 *
 * @param userId     the user's id ({@code sub} of the JWT), or {@code null} for an anonymous caller
 * @param credential its {@code Authorization: Bearer} credential, checked when the operator requires an API key
 * @param client     its address as the system derives it (never a header it sets freely): its upload job's group
 */
public record Caller(@Nullable String userId, CreateCredential credential, ClientAddress client) {

    public static final Caller ANONYMOUS = new Caller(null);

    /** A caller without a credential, from an address not known (tests' callers). */
    public Caller(@Nullable String userId) {
        this(userId, CreateCredential.NONE, ClientAddress.UNKNOWN);
    }
}
