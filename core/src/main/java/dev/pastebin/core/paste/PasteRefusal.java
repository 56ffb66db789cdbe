package dev.pastebin.core.paste;

/**
 * A request the pastebin refuses for a reason of its own, not a fault: a malformed short code or
 * Idempotency-Key, a lifetime, read-once option, language or file name it does not take, a paste that is not there, a reveal of a paste that is not read-once, a key reused for
 * another request or replayed too often, a paste an operator took down, content on the blocklist, a create without a valid API key or past its key's daily
 * limits (CreateAccess=api-key), or without a signed-in principal (CreateAccess=oidc), a page of the owner's listing with a limit or cursor it does not take. The domain says what; the HTTP layer (core.http's error processor) alone says how it is
 * answered, with which status and code. Expected answers carry no stack trace.
 */
public abstract sealed class PasteRefusal extends RuntimeException
        permits MalformedShortCodeException,
                InvalidIdempotencyKeyException,
                InvalidExpiryException,
                InvalidReadOnceException,
                InvalidLanguageException,
                InvalidFileNameException,
                PasteNotFoundException,
                NotReadOnceException,
                IdempotencyKeyReusedException,
                IdempotencyKeyExhaustedException,
                PasteTakenDownException,
                ContentBlockedException,
                ApiKeyRequiredException,
                SignInRequiredException,
                ApiKeyInvalidException,
                ApiKeyQuotaExceededException,
                InvalidPageLimitException,
                InvalidPageCursorException {

    protected PasteRefusal(String message) {
        super(message, null, false, false);
    }
}
