package dev.pastebin.api.http;

import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.paste.PasteRefusal;
import io.micronaut.function.aws.proxy.ApiGatewayServletRequest;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpMethod;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.MediaType;
import io.micronaut.http.MutableHttpResponse;
import io.micronaut.http.server.exceptions.UnsupportedMediaException;
import io.micronaut.http.server.exceptions.response.ErrorContext;
import io.micronaut.http.server.exceptions.response.ErrorResponseProcessor;
import jakarta.inject.Singleton;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renders every error of the HTTP functions as {@link ApiError}: the API's own ({@link ApiException}), the
 * domain's refusals ({@link PasteRefusal}, each mapped to its code by {@link ApiErrorCode#of}), a dependency
 * that is down ({@link DependencyUnavailableException}) and the ones Micronaut raises itself (no route, wrong method,
 * unsupported media type, unreadable body, unexpected exceptions). Replacing the processor, rather than
 * adding handlers one by one, is what keeps Micronaut's default error JSON from ever leaking out.
 * A request a controller marked for {@link PlainTextErrors} gets the message as one text/plain line instead.
 * Framework messages are not passed on: they can quote the request body (JSON parse errors) or internals
 * (SQL, bucket names in exception messages), so each code has a fixed message instead.
 */
@Singleton
public class ApiErrorResponseProcessor implements ErrorResponseProcessor<ApiError> {

    private static final Logger LOG = LoggerFactory.getLogger(ApiErrorResponseProcessor.class);

    private final ApiProperties properties;

    public ApiErrorResponseProcessor(ApiProperties properties) {
        this.properties = properties;
    }

    @Override
    @SuppressWarnings("unchecked")
    public MutableHttpResponse<ApiError> processResponse(ErrorContext errorContext, MutableHttpResponse<?> response) {
        HttpRequest<?> request = errorContext.getRequest();
        Throwable cause = errorContext.getRootCause().orElse(null);
        ApiErrorCode code;
        String message;
        if (cause instanceof ApiException api) {
            code = api.code();
            message = api.getMessage();
        } else if (cause instanceof PasteRefusal refusal) {
            code = ApiErrorCode.of(refusal);
            message = refusal.getMessage();
        } else if (cause instanceof DependencyUnavailableException unavailable) {
            code = ApiErrorCode.SERVICE_UNAVAILABLE;
            message = "The " + unavailable.dependency().label() + " is temporarily unavailable; retry later";
        } else if (isEmptyBody(cause)) {
            // the API Gateway request binder reports an empty body as a decoding failure of the @Body argument
            code = ApiErrorCode.EMPTY_CONTENT;
            message = "The request body is empty";
        } else if (cause instanceof UnsupportedMediaException unsupported) {
            // the types the route declares, never the one the client sent
            code = ApiErrorCode.UNSUPPORTED_MEDIA_TYPE;
            message = "Content-Type must be one of " + String.join(", ", unsupported.getAcceptableContentTypes());
        } else {
            code = ApiErrorCode.forStatus(response.code());
            message = defaultMessage(code, request);
        }
        String requestId = RequestIds.of(request);
        if (cause instanceof PasteRefusal refusal) {
            ApiKeyChallenges.addHeaders(refusal, response);
        }
        if (code == ApiErrorCode.SERVICE_UNAVAILABLE) {
            response.header(HttpHeaders.RETRY_AFTER, Integer.toString(properties.unavailableRetryAfterSeconds()));
        }
        // errors describe this moment, not the resource: never cache them
        response.header(HttpHeaders.CACHE_CONTROL, "no-store");
        log(request, response.code(), code, cause, requestId);
        boolean textLine = PlainTextErrors.wanted(request);
        // HEAD gets the headers GET would have, Content-Type included, without the body
        response.contentType(textLine ? MediaType.of(ContentNegotiation.TEXT_UTF8) : MediaType.APPLICATION_JSON_TYPE);
        if (request.getMethod() == HttpMethod.HEAD) {
            return (MutableHttpResponse<ApiError>) response;
        }
        if (textLine) {
            // the client prints the body: the message alone, the status says the rest
            return (MutableHttpResponse<ApiError>) (MutableHttpResponse<?>) response.body(message + "\n");
        }
        return response.body(new ApiError(code.name(), message, requestId));
    }

    private static boolean isEmptyBody(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof ApiGatewayServletRequest.EmptyBodyException) {
                return true;
            }
        }
        return false;
    }

    private static String defaultMessage(ApiErrorCode code, HttpRequest<?> request) {
        return switch (code) {
            case NOT_FOUND -> "No such resource";
            case METHOD_NOT_ALLOWED -> "Method " + request.getMethodName() + " is not allowed on this resource";
            case NOT_ACCEPTABLE -> "None of the media types in Accept can be produced";
            case UNSUPPORTED_MEDIA_TYPE -> "This Content-Type is not supported here";
            case CONTENT_TOO_LARGE -> "The request body is too large";
            case SERVICE_UNAVAILABLE -> "Temporarily unavailable; retry later";
            case INTERNAL_ERROR -> "Internal error";
            default -> "The request is malformed";
        };
    }

    private static void log(HttpRequest<?> request, int status, ApiErrorCode code, Throwable cause, String requestId) {
        // The path is logged, never the body: it may be paste content.
        if (status >= 500) {
            LOG.warn(
                    "{} {} answered {} {} requestId={} cause={}",
                    request.getMethodName(),
                    request.getPath(),
                    status,
                    code,
                    requestId,
                    cause == null ? "-" : cause.toString());
        } else {
            LOG.info(
                    "{} {} answered {} {} requestId={}{}",
                    request.getMethodName(),
                    request.getPath(),
                    status,
                    code,
                    requestId,
                    cause == null || cause instanceof ApiException || cause instanceof PasteRefusal
                            ? ""
                            : " cause=" + cause.getClass().getSimpleName());
        }
    }
}
