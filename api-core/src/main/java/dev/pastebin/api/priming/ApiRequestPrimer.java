package dev.pastebin.api.priming;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import dev.pastebin.core.priming.Primer;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Requires;
import io.micronaut.function.aws.proxy.payload2.APIGatewayV2HTTPEventFunction;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;

/**
 * Sends the function's {@link PrimingRequest}s through the real API Gateway handler (a second handler over
 * the same application context): event decoding, routing, filters, binding, validation, the controller and
 * the JSON error answer all run once before the first real request.
 */
@Singleton
@Requires(beans = PrimingRequest.class)
public class ApiRequestPrimer implements Primer {

    private final ApplicationContext context;
    private final List<PrimingRequest> requests;

    public ApiRequestPrimer(ApplicationContext context, List<PrimingRequest> requests) {
        this.context = context;
        this.requests = requests;
    }

    @Override
    public String name() {
        return "API handler ("
                + requests.stream().map(r -> r.method() + " " + r.path()).toList() + ")";
    }

    @Override
    public void prime() {
        var handler = new APIGatewayV2HTTPEventFunction(context);
        for (PrimingRequest request : requests) {
            APIGatewayV2HTTPResponse response = handler.handleRequest(event(request), new PrimingLambdaContext());
            if (response.getStatusCode() != request.expectedStatus()) {
                throw new IllegalStateException(request.method() + " " + request.path() + " answered "
                        + response.getStatusCode() + ", expected " + request.expectedStatus());
            }
        }
    }

    static APIGatewayV2HTTPEvent event(PrimingRequest request) {
        var http = APIGatewayV2HTTPEvent.RequestContext.Http.builder()
                .withMethod(request.method())
                .withPath(request.path())
                .withProtocol("HTTP/1.1")
                .withSourceIp("127.0.0.1")
                .withUserAgent("priming")
                .build();
        var requestContext = APIGatewayV2HTTPEvent.RequestContext.builder()
                .withHttp(http)
                .withRequestId(PrimingLambdaContext.REQUEST_ID)
                .withRouteKey(request.method() + " " + request.path())
                .withStage("$default")
                .withTimeEpoch(System.currentTimeMillis())
                .build();
        var event = APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0")
                .withRouteKey(requestContext.getRouteKey())
                .withRawPath(request.path())
                .withRawQueryString("")
                .withHeaders(request.headers())
                .withRequestContext(requestContext)
                .withIsBase64Encoded(true)
                .build();
        if (request.body() != null) {
            event.setBody(Base64.getEncoder().encodeToString(request.body().getBytes(StandardCharsets.UTF_8)));
        }
        return event;
    }
}
