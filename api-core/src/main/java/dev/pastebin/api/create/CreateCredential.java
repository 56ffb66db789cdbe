package dev.pastebin.api.create;

/**
 * What a create presented to prove it may create, as the HTTP layer read it from the request (the create
 * function's {@code CallerBinder}, the PrivateBin controller): a plain value, so the use case knows nothing of
 * headers. Checked by {@link CreateAccess} only when the operator requires an API key.
 */
public sealed interface CreateCredential {

    /** No credential at all. */
    CreateCredential NONE = new None();

    /** Something that is not a bearer credential. */
    CreateCredential MALFORMED = new Malformed();

    record None() implements CreateCredential {}

    record Malformed() implements CreateCredential {}

    /** A bearer token, not yet looked up. Its {@code toString} hides it: a key never reaches a log. */
    record Bearer(String token) implements CreateCredential {
        @Override
        public String toString() {
            return "Bearer[…]";
        }
    }
}
