package dev.pastebin.api.create;

import io.micronaut.core.annotation.Nullable;

/**
 * What a create presented to prove it may create, as the HTTP layer read it from the request
 * ({@code RequestCredentials}, for the create function and the PrivateBin controller): a plain value, so the use case
 * knows nothing of headers or authorizers. Checked by {@link CreateAccess} when the operator requires an API key or a
 * sign-in.
 */
public sealed interface CreateCredential {

    /** No credential at all. */
    CreateCredential NONE = new None();

    /** Something that is not a bearer credential. */
    CreateCredential MALFORMED = new Malformed();

    record None() implements CreateCredential {}

    record Malformed() implements CreateCredential {}

    /**
     * A principal API Gateway's JWT authorizer verified before the function ran (issuer, audience, expiry, signature):
     * its token's {@code sub} claim. The function never sees or keeps the token itself.
     */
    record Verified(String subject) implements CreateCredential {}

    /** The signed-in principal's subject of {@code credential}, or {@code null} for any other credential. */
    static @Nullable String subjectOf(CreateCredential credential) {
        return credential instanceof Verified verified ? verified.subject() : null;
    }

    /** A bearer token, not yet looked up. Its {@code toString} hides it: a key never reaches a log. */
    record Bearer(String token) implements CreateCredential {
        @Override
        public String toString() {
            return "Bearer[…]";
        }
    }
}
