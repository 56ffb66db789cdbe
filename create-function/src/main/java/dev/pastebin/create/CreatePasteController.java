package dev.pastebin.create;

import dev.pastebin.api.create.CreateLargePasteService;
import dev.pastebin.api.create.CreatePasteService;
import dev.pastebin.api.create.PasteRequest;
import dev.pastebin.api.http.ApiErrorCode;
import dev.pastebin.api.http.ApiException;
import dev.pastebin.api.http.ContentNegotiation;
import dev.pastebin.api.http.PlainTextErrors;
import dev.pastebin.api.http.RawBody;
import dev.pastebin.core.paste.IdempotencyKey;
import dev.pastebin.core.paste.InvalidIdempotencyKeyException;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Header;
import io.micronaut.http.annotation.Post;
import io.micronaut.json.tree.JsonNode;
import java.util.Locale;

/**
 * {@code POST /pastes}: the paste as a raw {@code text/plain} body ({@code curl --data-binary @file}) or as
 * JSON {@code {"content": "…"}}, with options (expiry, read-once) and an optional {@code Idempotency-Key}.
 * Command-line clients' forms ({@code curl -F file=@notes.txt}, rustypaste, 0x0.st, pastebinit) are taken
 * there and at {@code POST /}, as those services take them, and answered in their convention: the paste's URL
 * as one text/plain line and the deletion token in {@code X-Token} (JSON still to a client that asks for it).
 * Maps HTTP to {@link CreatePasteService} and back ({@link CreationAnswers}), nothing more. Documented in
 * docs/openapi.yaml, which OpenApiDocumentTest holds to this controller.
 */
@Controller
public class CreatePasteController {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    /** rustypaste's client sends its expiry in {@code expire}. */
    static final String EXPIRE = "expire";

    private final CreatePasteService service;
    private final PasteContentReader reader;
    private final CreateLargePasteService largeService;
    private final LargePasteReader largeReader;

    public CreatePasteController(
            CreatePasteService service,
            PasteContentReader reader,
            CreateLargePasteService largeService,
            LargePasteReader largeReader) {
        this.service = service;
        this.reader = reader;
        this.largeService = largeService;
        this.largeReader = largeReader;
    }

    @Post(
            uri = "/pastes",
            consumes = {
                MediaType.TEXT_PLAIN,
                MediaType.APPLICATION_JSON,
                MediaType.MULTIPART_FORM_DATA,
                MediaType.APPLICATION_FORM_URLENCODED
            },
            produces = {MediaType.APPLICATION_JSON, MediaType.TEXT_PLAIN})
    public HttpResponse<?> create(
            RawBody body,
            @Header(IDEMPOTENCY_KEY) @Nullable String idempotencyKey,
            @Header(EXPIRE) @Nullable String expire,
            HttpRequest<?> request,
            Caller caller) {
        return createPaste(body, idempotencyKey, expire, request, caller);
    }

    /** {@code POST /}: where rustypaste, 0x0.st and many a {@code curl -F} habit post; the same as {@code POST /pastes}. */
    @Post(
            uri = "/",
            consumes = {
                MediaType.TEXT_PLAIN,
                MediaType.APPLICATION_JSON,
                MediaType.MULTIPART_FORM_DATA,
                MediaType.APPLICATION_FORM_URLENCODED
            },
            produces = {MediaType.APPLICATION_JSON, MediaType.TEXT_PLAIN})
    public HttpResponse<?> createAtRoot(
            RawBody body,
            @Header(IDEMPOTENCY_KEY) @Nullable String idempotencyKey,
            @Header(EXPIRE) @Nullable String expire,
            HttpRequest<?> request,
            Caller caller) {
        return createPaste(body, idempotencyKey, expire, request, caller);
    }

    /**
     * One route for every form of body, told apart here by Content-Type. With a route per form Micronaut narrowed
     * the routes by Accept first and answered an unacceptable Accept with 415 instead of 406, and a body without
     * a Content-Type matched several routes. The body is bound raw ({@link dev.pastebin.api.http.RawBodyBinder}) and query values are
     * read only for a text/plain body: behind the API Gateway proxy, binding either the Micronaut way parses a
     * form body, multipart too, as a query string.
     */
    private HttpResponse<?> createPaste(
            RawBody body,
            @Nullable String idempotencyKey,
            @Nullable String expire,
            HttpRequest<?> request,
            Caller caller) {
        MediaType type = request.getContentType().orElseThrow(CreatePasteController::unsupportedMediaType);
        String name = type.getName().toLowerCase(Locale.ROOT);
        if (name.equals(MediaType.MULTIPART_FORM_DATA) || name.equals(MediaType.APPLICATION_FORM_URLENCODED)) {
            return createFromForm(body.bytes(), type, expire, idempotencyKey, request, caller);
        }
        PasteContentReader.requireUtf8Charset(type);
        if (name.equals(MediaType.APPLICATION_JSON)) {
            JsonNode document = reader.jsonDocument(body.bytes());
            if (LargePasteReader.declaresFiles(document)) {
                return createLarge(document, idempotencyKey, request, caller);
            }
            return createOne(reader.fromJsonDocument(document), idempotencyKey, request, caller);
        }
        if (!name.equals(MediaType.TEXT_PLAIN)) {
            throw unsupportedMediaType();
        }
        PasteRequest paste = reader.fromText(
                body.bytes(),
                request.getParameters().get("expiresIn"),
                request.getParameters().get("readOnce"),
                request.getParameters().get("language"),
                request.getParameters().get("fileName"));
        return createOne(paste, idempotencyKey, request, caller);
    }

    private HttpResponse<?> createOne(
            PasteRequest paste, @Nullable String idempotencyKey, HttpRequest<?> request, Caller caller) {
        IdempotencyKey key = IdempotencyKey.of(idempotencyKey, caller.userId());
        return CreationAnswers.created(
                service.create(paste, caller.userId(), key, caller.credential(), caller.client()), request);
    }

    /**
     * A large create (docs/design.md, "Large files: straight to S3"): the declared files checked against the limits,
     * then 201 with a pre-signed upload per file. Not replayable: each replay would have to sign new uploads for a
     * paste whose bytes may be on their way, so an {@code Idempotency-Key} is refused rather than silently ignored.
     */
    private HttpResponse<?> createLarge(
            JsonNode document, @Nullable String idempotencyKey, HttpRequest<?> request, Caller caller) {
        if (idempotencyKey != null) {
            throw new InvalidIdempotencyKeyException("A create with \"files\" takes no Idempotency-Key");
        }
        CreateLargePasteService.LargePasteRequest paste = largeReader.fromJson(document);
        CreateLargePasteService.LargeCreation creation =
                largeService.create(paste, caller.userId(), caller.credential());
        return CreationAnswers.createdLarge(
                creation,
                paste.files().stream()
                        .map(CreateLargePasteService.DeclaredFile::name)
                        .toList(),
                request);
    }

    /**
     * The clients that post forms print the body they get: the URL on success, and any error as one line they
     * can show ({@link PlainTextErrors}; the API's JSON error to a client that asks for JSON). The deletion token
     * goes in X-Token, as 0x0.st sends it.
     */
    private HttpResponse<?> createFromForm(
            byte[] body,
            MediaType type,
            @Nullable String expire,
            @Nullable String idempotencyKey,
            HttpRequest<?> request,
            Caller caller) {
        boolean json = ContentNegotiation.wantsJson(request);
        if (!json) {
            PlainTextErrors.answerErrorsAsTextLine(request);
        }
        PasteContentReader.requireUtf8Charset(type);
        boolean multipart = type.getName().equalsIgnoreCase(MediaType.MULTIPART_FORM_DATA);
        reader.requireFormWithinLimit(body, multipart);
        ClientForm form = multipart ? ClientForm.multipart(body, type) : ClientForm.urlEncoded(body);
        PasteRequest paste = reader.fromForm(form, multipart, expire);
        IdempotencyKey key = IdempotencyKey.of(idempotencyKey, caller.userId());
        CreatePasteService.Creation creation =
                service.create(paste, caller.userId(), key, caller.credential(), caller.client());
        return (json ? CreationAnswers.created(creation, request) : CreationAnswers.urlLine(creation, request))
                .header(CreationAnswers.X_TOKEN, creation.deleteToken());
    }

    private static ApiException unsupportedMediaType() {
        return new ApiException(
                ApiErrorCode.UNSUPPORTED_MEDIA_TYPE,
                "Send the paste with Content-Type: "
                        + "text/plain; charset=utf-8, application/json, multipart/form-data or application/x-www-form-urlencoded");
    }
}
