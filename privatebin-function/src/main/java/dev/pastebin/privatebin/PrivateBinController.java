package dev.pastebin.privatebin;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import dev.pastebin.api.create.ClientAddress;
import dev.pastebin.api.http.ApiKeyChallenges;
import dev.pastebin.api.http.ApiProperties;
import dev.pastebin.api.http.EdgeRequests;
import dev.pastebin.api.http.RawBody;
import dev.pastebin.api.http.RequestCredentials;
import dev.pastebin.api.remove.DeletePasteService;
import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.logging.LogContext;
import dev.pastebin.core.paste.ApiKeyInvalidException;
import dev.pastebin.core.paste.ApiKeyQuotaExceededException;
import dev.pastebin.core.paste.ApiKeyRequiredException;
import dev.pastebin.core.paste.ContentBlockedException;
import dev.pastebin.core.paste.PasteNotFoundException;
import dev.pastebin.core.paste.PasteRefusal;
import dev.pastebin.core.paste.PasteTakenDownException;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.paste.SignInRequiredException;
import dev.pastebin.core.storage.PasteInconsistencyException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.HttpStatus;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Error;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Post;
import io.micronaut.json.JsonMapper;
import io.micronaut.servlet.http.ServletHttpRequest;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * PrivateBin's API (format v2) at {@code /pb/} (and {@code /pb}): one URL, the operation chosen by method, query and
 * body as PrivateBin chooses it, which API Gateway's routes (method and path) cannot, so this one adapter maps the
 * protocol onto the system's use cases. {@code GET ?jsonld=paste} the JSON-LD context; {@code GET ?<id>} (or
 * {@code ?pasteid=<id>}) a read, JSON to a JSON API call ({@link JsonApiCall}), a page to a browser;
 * {@code GET ?pasteid=…&deletetoken=…} the delete link; {@code POST} a create, or a delete when the body names
 * {@code pasteid} and {@code deletetoken}. Answers are the protocol's: {@code status} 0 with the result, or
 * {@code status} 1 with a message (HTTP 200); only faults (503, 500), takedowns (451) and, where the operator requires
 * an API key, a create's refused key (401, 429) carry other statuses, still with the protocol's body.
 */
@Controller
public class PrivateBinController {

    static final String PATH = "/pb";

    private static final Logger LOG = LoggerFactory.getLogger(PrivateBinController.class);

    /** PrivateBin's words for an id that is not one ({@code Model::setId}). */
    static final String INVALID_ID = "Invalid document ID.";

    static final String DELETED = "Document was properly deleted.";
    /** A wrong token and a missing paste answer alike: a stranger learns nothing about which ids exist. */
    static final String NOT_DELETED =
            "Wrong deletion token, or the document does not exist, has expired or has been deleted. Nothing was deleted.";

    private final CreateEncryptedPasteService creates;
    private final ReadEncryptedPasteService reads;
    private final DeletePasteService deletions;
    private final FormatV2 format;
    private final ShortCodes shortCodes;
    private final JsonMapper json;
    private final ApiProperties api;

    PrivateBinController(
            CreateEncryptedPasteService creates,
            ReadEncryptedPasteService reads,
            DeletePasteService deletions,
            FormatV2 format,
            ShortCodes shortCodes,
            JsonMapper json,
            ApiProperties api) {
        this.creates = creates;
        this.reads = reads;
        this.deletions = deletions;
        this.format = format;
        this.shortCodes = shortCodes;
        this.json = json;
        this.api = api;
    }

    @Get(uri = PATH, produces = MediaType.ALL)
    public HttpResponse<?> get(HttpRequest<?> request) {
        boolean jsonApi = JsonApiCall.detect(
                request.getHeaders().get(JsonApiCall.X_REQUESTED_WITH),
                request.getHeaders().get(HttpHeaders.ACCEPT));
        String base = request.getPath();
        return switch (PrivateBinQuery.of(rawQuery(request), shortCodes::isWellFormed)) {
            case PrivateBinQuery.JsonLd jsonLd -> PrivateBinAnswers.jsonLd(base, jsonLd.type());
            case PrivateBinQuery.Read read ->
                jsonApi
                        ? PrivateBinAnswers.paste(base, reads.read(wellFormed(read.pasteId())))
                        // a browser: the web page, which decrypts it with the key in the fragment (browsers keep a
                        // fragment across a redirect); nothing is read here, so a link preview burns nothing
                        : shortCodes.isWellFormed(read.pasteId())
                                ? PrivateBinPages.webPage(read.pasteId())
                                : PrivateBinPages.index();
            case PrivateBinQuery.Delete delete ->
                jsonApi ? delete(base, delete.pasteId(), delete.deleteToken()) : deletePage(delete);
            case PrivateBinQuery.Page ignored ->
                jsonApi
                        ? PrivateBinAnswers.error(HttpStatus.OK, "Name a paste: ?<id> reads it, POST creates one.")
                        : PrivateBinPages.index();
        };
    }

    @Post(uri = PATH, consumes = MediaType.ALL, produces = MediaType.ALL)
    public HttpResponse<?> post(RawBody body, HttpRequest<?> request) {
        byte[] bytes = body.bytes();
        // what cannot hold a paste within the limit is refused before it is parsed (even with every '/' escaped)
        if (bytes.length > 2L * format.maxCiphertextChars() + 2L * FormatV2.ENVELOPE_RESERVE_BYTES) {
            throw format.tooLarge();
        }
        PostedBody posted = PostedBody.parse(bytes, json).orElseThrow(InvalidPasteDataException::invalidData);
        Optional<PostedBody.Deletion> deletion = posted.deletion();
        if (deletion.isPresent()) {
            return delete(
                    request.getPath(), deletion.get().pasteId(), deletion.get().deleteToken());
        }
        // a delete (above) stays anonymous in every mode: its deletion token is its credential
        return PrivateBinAnswers.created(
                request.getPath(),
                creates.create(
                        format.paste(posted),
                        RequestCredentials.of(request),
                        // the upload job's group, as the create function's: X-Forwarded-For only from the edge
                        new ClientAddress(EdgeRequests.clientAddress(request))));
    }

    private HttpResponse<?> delete(String base, String pasteId, String deleteToken) {
        try {
            deletions.delete(wellFormed(pasteId), deleteToken);
        } catch (PasteNotFoundException e) {
            return PrivateBinAnswers.error(HttpStatus.OK, NOT_DELETED);
        }
        return PrivateBinAnswers.deleted(base, pasteId);
    }

    /** The delete link, opened in a browser: PrivateBin deletes and shows the outcome. */
    private HttpResponse<?> deletePage(PrivateBinQuery.Delete delete) {
        if (!shortCodes.isWellFormed(delete.pasteId())) {
            return PrivateBinPages.deleteResult(false, INVALID_ID);
        }
        LogContext.forPaste(delete.pasteId());
        try {
            deletions.delete(delete.pasteId(), delete.deleteToken());
        } catch (PasteNotFoundException e) {
            return PrivateBinPages.deleteResult(false, NOT_DELETED);
        }
        return PrivateBinPages.deleteResult(true, DELETED);
    }

    private String wellFormed(String pasteId) {
        if (!shortCodes.isWellFormed(pasteId)) {
            throw new InvalidPasteDataException(INVALID_ID);
        }
        LogContext.forPaste(pasteId);
        return pasteId;
    }

    /** As API Gateway received it: a bare {@code ?<id>} has no value to parse, which the protocol relies on. */
    @Nullable
    private static String rawQuery(HttpRequest<?> request) {
        if (request instanceof ServletHttpRequest<?, ?> servlet
                && servlet.getNativeRequest() instanceof APIGatewayV2HTTPEvent event) {
            return event.getRawQueryString();
        }
        return request.getUri().getRawQuery();
    }

    @Error(exception = InvalidPasteDataException.class)
    public HttpResponse<?> refused(InvalidPasteDataException e) {
        return PrivateBinAnswers.error(HttpStatus.OK, e.getMessage());
    }

    @Error(exception = PasteNotFoundException.class)
    public HttpResponse<?> notFound() {
        return PrivateBinAnswers.error(HttpStatus.OK, PrivateBinAnswers.GENERIC_ERROR);
    }

    @Error(exception = PasteStillStoringException.class)
    public HttpResponse<?> stillStoring(PasteStillStoringException e) {
        return PrivateBinAnswers.error(HttpStatus.OK, e.getMessage())
                .header(HttpHeaders.RETRY_AFTER, Integer.toString(api.inProgressRetryAfterSeconds()));
    }

    @Error(exception = PasteTakenDownException.class)
    public HttpResponse<?> takenDown() {
        return PrivateBinAnswers.error(
                HttpStatus.UNAVAILABLE_FOR_LEGAL_REASONS, "Document was taken down by the operator.");
    }

    @Error(exception = ContentBlockedException.class)
    public HttpResponse<?> blocked() {
        return PrivateBinAnswers.error(
                HttpStatus.UNAVAILABLE_FOR_LEGAL_REASONS, "This content was blocked by the operator.");
    }

    /**
     * An instance that requires an API key refuses a create without a valid one as it refuses a takedown's read:
     * the protocol's body with the status that says why (401, 429) and its headers ({@code WWW-Authenticate},
     * {@code Retry-After}).
     */
    @Error(exception = ApiKeyRequiredException.class)
    public HttpResponse<?> keyRequired(ApiKeyRequiredException e) {
        return refusedKey(HttpStatus.UNAUTHORIZED, e);
    }

    @Error(exception = SignInRequiredException.class)
    public HttpResponse<?> signInRequired(SignInRequiredException e) {
        return refusedKey(HttpStatus.UNAUTHORIZED, e);
    }

    @Error(exception = ApiKeyInvalidException.class)
    public HttpResponse<?> keyInvalid(ApiKeyInvalidException e) {
        return refusedKey(HttpStatus.UNAUTHORIZED, e);
    }

    @Error(exception = ApiKeyQuotaExceededException.class)
    public HttpResponse<?> quotaExceeded(ApiKeyQuotaExceededException e) {
        return refusedKey(HttpStatus.TOO_MANY_REQUESTS, e);
    }

    private static HttpResponse<?> refusedKey(HttpStatus status, PasteRefusal refusal) {
        MutableHttpResponse<byte[]> answer = PrivateBinAnswers.error(status, refusal.getMessage());
        ApiKeyChallenges.addHeaders(refusal, answer);
        return answer;
    }

    @Error(exception = DependencyUnavailableException.class)
    public HttpResponse<?> unavailable(HttpRequest<?> request, DependencyUnavailableException e) {
        LOG.warn("{} {} answered 503: {} unavailable", request.getMethod(), request.getPath(), e.dependency(), e);
        return PrivateBinAnswers.error(
                        HttpStatus.SERVICE_UNAVAILABLE,
                        "The service is briefly unavailable. Try again in a few seconds.")
                .header(HttpHeaders.RETRY_AFTER, Integer.toString(api.unavailableRetryAfterSeconds()));
    }

    /**
     * Anything no handler above expects (a database that refuses a statement, a bug): PrivateBin's clients print the
     * protocol's message, so the answer stays in its shape rather than the API's JSON error.
     */
    @Error(exception = RuntimeException.class)
    public HttpResponse<?> unexpected(HttpRequest<?> request, RuntimeException e) {
        LOG.error("{} {} answered 500", request.getMethod(), request.getPath(), e);
        return PrivateBinAnswers.error(
                HttpStatus.INTERNAL_SERVER_ERROR, "The server could not do this. Try again later.");
    }

    @Error(exception = PasteInconsistencyException.class)
    public HttpResponse<?> inconsistent(HttpRequest<?> request, PasteInconsistencyException e) {
        LOG.error("{} {} answered 500: {}", request.getMethod(), request.getPath(), e.getMessage());
        return PrivateBinAnswers.error(
                HttpStatus.INTERNAL_SERVER_ERROR, "Document could not be read. Try again later.");
    }
}
