package dev.pastebin.api.http;

import dev.pastebin.core.paste.ApiKeyInvalidException;
import dev.pastebin.core.paste.ApiKeyQuotaExceededException;
import dev.pastebin.core.paste.ApiKeyRequiredException;
import dev.pastebin.core.paste.ContentBlockedException;
import dev.pastebin.core.paste.IdempotencyKeyExhaustedException;
import dev.pastebin.core.paste.IdempotencyKeyReusedException;
import dev.pastebin.core.paste.InvalidExpiryException;
import dev.pastebin.core.paste.InvalidFileNameException;
import dev.pastebin.core.paste.InvalidIdempotencyKeyException;
import dev.pastebin.core.paste.InvalidLanguageException;
import dev.pastebin.core.paste.InvalidPageCursorException;
import dev.pastebin.core.paste.InvalidPageLimitException;
import dev.pastebin.core.paste.InvalidReadOnceException;
import dev.pastebin.core.paste.MalformedShortCodeException;
import dev.pastebin.core.paste.NotReadOnceException;
import dev.pastebin.core.paste.PasteNotFoundException;
import dev.pastebin.core.paste.PasteRefusal;
import dev.pastebin.core.paste.PasteTakenDownException;
import dev.pastebin.core.paste.SignInRequiredException;
import io.micronaut.http.HttpStatus;

/** The stable machine-readable error codes of the HTTP API, each with the status it is answered with. */
public enum ApiErrorCode {
    /** The body is not a JSON document of the expected shape. */
    INVALID_JSON(HttpStatus.BAD_REQUEST),
    /** A JSON body without a {@code content} string. */
    MISSING_CONTENT(HttpStatus.BAD_REQUEST),
    /** The paste is empty. */
    EMPTY_CONTENT(HttpStatus.BAD_REQUEST),
    /** The paste is not valid UTF-8 (or, in JSON, not valid Unicode). */
    INVALID_UTF8(HttpStatus.BAD_REQUEST),
    /** A short code of the wrong length or alphabet; nothing is looked up. */
    MALFORMED_SHORT_CODE(HttpStatus.BAD_REQUEST),
    /** {@code expiresIn} is not a whole number of seconds between 60 and 31,536,000 (one year). */
    INVALID_EXPIRY(HttpStatus.BAD_REQUEST),
    /** {@code readOnce} is neither {@code true} nor {@code false}. */
    INVALID_READ_ONCE(HttpStatus.BAD_REQUEST),
    /** A {@code language} that is not one of the web page's highlighter's (PasteMetadata.LANGUAGES). */
    INVALID_LANGUAGE(HttpStatus.BAD_REQUEST),
    /** A {@code fileName} that is not 1 to 128 characters without path separators or control characters. */
    INVALID_FILE_NAME(HttpStatus.BAD_REQUEST),
    /**
     * A large create's {@code files} that is not a non-empty array of objects each with a {@code size} (a whole
     * number, at least 1), a {@code sha256} (64 hex digits) and an optional {@code contentType} (a media type); or a
     * {@code curl -T} upload ({@code PUT /{name}}) without a {@code Content-Length} or of an empty file, whose
     * {@code x-amz-checksum-sha256} is not the base64 of 32 bytes or whose {@code Content-Type} is no media type. The
     * message names the file and the field.
     */
    INVALID_FILES(HttpStatus.BAD_REQUEST),
    /** An {@code Idempotency-Key} that is not 1 to 128 characters of {@code [A-Za-z0-9_.:-]}. */
    INVALID_IDEMPOTENCY_KEY(HttpStatus.BAD_REQUEST),
    /**
     * An abuse report whose {@code reason} is not one of the fixed list, or whose {@code text} or {@code contact} is
     * too long, not a string or holds control characters; the message names the field.
     */
    INVALID_REPORT(HttpStatus.BAD_REQUEST),
    /** A page of {@code GET /me/pastes} asked with a {@code limit} that is not a whole number from 1 to 200. */
    INVALID_LIMIT(HttpStatus.BAD_REQUEST),
    /** A page of {@code GET /me/pastes} asked {@code after} a cursor that no page's {@code next} gave. */
    INVALID_CURSOR(HttpStatus.BAD_REQUEST),
    /** Any other malformed request. */
    BAD_REQUEST(HttpStatus.BAD_REQUEST),
    /** {@code DELETE} without a {@code Paste-Delete-Token} header. */
    DELETE_TOKEN_REQUIRED(HttpStatus.UNAUTHORIZED),
    /**
     * A create without {@code Authorization: Bearer <key>} on an instance that requires an API key; an owner's route
     * ({@code /me/pastes}) without it on any instance.
     */
    API_KEY_REQUIRED(HttpStatus.UNAUTHORIZED),
    /**
     * A create that reached the function without the claims of a token API Gateway's JWT authorizer verified, on an
     * instance that requires a sign-in ({@code CreateAccess=oidc}); API Gateway itself refuses a create without a
     * valid token with its own {@code 401 {"message":"Unauthorized"}}.
     */
    SIGN_IN_REQUIRED(HttpStatus.UNAUTHORIZED),
    /**
     * A create or an owner's route whose {@code Authorization} is no bearer credential, or whose key is unknown or
     * revoked.
     */
    API_KEY_INVALID(HttpStatus.UNAUTHORIZED),
    /**
     * The request did not come through the API's CloudFront distribution (no or a wrong origin secret): the
     * execute-api address is not public when the edge is on (docs/design.md, "Edge").
     */
    EDGE_REQUIRED(HttpStatus.FORBIDDEN),
    /**
     * No readable paste has this short code (unknown, its upload failed, expired, deleted or read once), or a
     * delete with the wrong token: a stranger cannot tell which.
     */
    PASTE_NOT_FOUND(HttpStatus.NOT_FOUND),
    /**
     * No paste has this short code because an operator took it down (RFC 7725): removed on purpose, not missing.
     * Answered while its tombstone is kept (the moderation retention), 404 afterwards.
     */
    PASTE_TAKEN_DOWN(HttpStatus.UNAVAILABLE_FOR_LEGAL_REASONS),
    /** A create whose content is on the operator's blocklist (its SHA-256): nothing is stored. */
    CONTENT_BLOCKED(HttpStatus.UNAVAILABLE_FOR_LEGAL_REASONS),
    /** No route for this path. */
    NOT_FOUND(HttpStatus.NOT_FOUND),
    METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED),
    NOT_ACCEPTABLE(HttpStatus.NOT_ACCEPTABLE),
    /** A reveal of a paste that is not read-once (read it with GET). */
    NOT_READ_ONCE(HttpStatus.CONFLICT),
    /** A haste read ({@code /raw/{key}}, {@code /documents/{key}}) of a read-once paste: only a reveal shows it. */
    READ_ONCE(HttpStatus.CONFLICT),
    /** The paste is larger than {@code pastebin.paste.max-content-bytes} (a report: its body than its limit). */
    CONTENT_TOO_LARGE(HttpStatus.REQUEST_ENTITY_TOO_LARGE),
    UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE),
    /** The {@code Idempotency-Key} was used within 24 h for a different request (content or options). */
    IDEMPOTENCY_KEY_REUSED(HttpStatus.UNPROCESSABLE_ENTITY),
    /** The {@code Idempotency-Key} has answered its 16 replays; the paste stays, a new request needs a new key. */
    IDEMPOTENCY_KEY_EXHAUSTED(HttpStatus.CONFLICT),
    /**
     * A create that would take its API key past the key's daily paste or byte limit; {@code Retry-After} says when
     * the key's next UTC day starts.
     */
    API_KEY_QUOTA_EXCEEDED(HttpStatus.TOO_MANY_REQUESTS),
    INTERNAL_ERROR(HttpStatus.INTERNAL_SERVER_ERROR),
    /** A dependency (database, queue, storage) is unavailable; retry after {@code Retry-After} seconds. */
    SERVICE_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE);

    private final HttpStatus status;

    ApiErrorCode(HttpStatus status) {
        this.status = status;
    }

    public HttpStatus status() {
        return status;
    }

    /** The code of a refusal of the domain: the one place that says how each is answered. */
    static ApiErrorCode of(PasteRefusal refusal) {
        return switch (refusal) {
            case MalformedShortCodeException e -> MALFORMED_SHORT_CODE;
            case InvalidIdempotencyKeyException e -> INVALID_IDEMPOTENCY_KEY;
            case InvalidExpiryException e -> INVALID_EXPIRY;
            case InvalidReadOnceException e -> INVALID_READ_ONCE;
            case InvalidLanguageException e -> INVALID_LANGUAGE;
            case InvalidFileNameException e -> INVALID_FILE_NAME;
            case PasteNotFoundException e -> PASTE_NOT_FOUND;
            case NotReadOnceException e -> NOT_READ_ONCE;
            case IdempotencyKeyReusedException e -> IDEMPOTENCY_KEY_REUSED;
            case IdempotencyKeyExhaustedException e -> IDEMPOTENCY_KEY_EXHAUSTED;
            case PasteTakenDownException e -> PASTE_TAKEN_DOWN;
            case ContentBlockedException e -> CONTENT_BLOCKED;
            case ApiKeyRequiredException e -> API_KEY_REQUIRED;
            case SignInRequiredException e -> SIGN_IN_REQUIRED;
            case ApiKeyInvalidException e -> API_KEY_INVALID;
            case ApiKeyQuotaExceededException e -> API_KEY_QUOTA_EXCEEDED;
            case InvalidPageLimitException e -> INVALID_LIMIT;
            case InvalidPageCursorException e -> INVALID_CURSOR;
        };
    }

    /** The code for a status the framework answered by itself (no route, wrong method, …). */
    static ApiErrorCode forStatus(int status) {
        return switch (status) {
            case 400 -> BAD_REQUEST;
            case 404 -> NOT_FOUND;
            case 405 -> METHOD_NOT_ALLOWED;
            case 406 -> NOT_ACCEPTABLE;
            case 413 -> CONTENT_TOO_LARGE;
            case 415 -> UNSUPPORTED_MEDIA_TYPE;
            case 503 -> SERVICE_UNAVAILABLE;
            default -> status < 500 ? BAD_REQUEST : INTERNAL_ERROR;
        };
    }
}
