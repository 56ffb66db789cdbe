package dev.pastebin.core.paste;

/**
 * A create without a signed-in principal where the operator requires one ({@code CreateAccess=oidc}): refused (401).
 * API Gateway's JWT authorizer refuses such a create before any function runs; this is the function's own check
 * behind it, for a route the authorizer does not guard.
 */
public final class SignInRequiredException extends PasteRefusal {

    public SignInRequiredException(String message) {
        super(message);
    }
}
