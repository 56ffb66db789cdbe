package dev.pastebin.api.priming;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.amazonaws.services.lambda.runtime.serialization.factories.JacksonFactory;
import dev.pastebin.core.priming.Primer;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The Lambda runtime's own part of an invocation: it reads the event JSON into an {@code APIGatewayV2HTTPEvent}
 * and writes the handler's {@code APIGatewayV2HTTPResponse} back, with the serializer of its shared
 * {@link JacksonFactory} (the runtime's choice for event classes that need no mix-in). Round-tripping each
 * {@link PrimingRequest}'s event and a response with headers and a base64 body through that same factory
 * loads and warms that code before the snapshot; {@link ApiRequestPrimer} calls the handler directly and
 * never reaches it. The runtime provides the serialization library; without it (a test) there is nothing to prime.
 */
@Singleton
@Requires(classes = JacksonFactory.class)
@Requires(beans = PrimingRequest.class)
public class RuntimeSerializationPrimer implements Primer {

    private final List<PrimingRequest> requests;

    public RuntimeSerializationPrimer(List<PrimingRequest> requests) {
        this.requests = requests;
    }

    @Override
    public String name() {
        return "runtime event serialization (APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse)";
    }

    @Override
    public void prime() {
        // by Type, as the runtime asks for them (EventHandlerLoader)
        PojoSerializer<Object> events = JacksonFactory.getInstance().getSerializer((Type) APIGatewayV2HTTPEvent.class);
        PojoSerializer<Object> responses =
                JacksonFactory.getInstance().getSerializer((Type) APIGatewayV2HTTPResponse.class);
        for (PrimingRequest request : requests) {
            var event = (APIGatewayV2HTTPEvent) events.fromJson(toJson(events, ApiRequestPrimer.event(request)));
            if (!request.path().equals(event.getRawPath())) {
                throw new IllegalStateException(
                        "the event did not survive the runtime's serializer: " + event.getRawPath());
            }
        }
        var response = APIGatewayV2HTTPResponse.builder()
                .withStatusCode(200)
                .withHeaders(Map.of("content-type", "application/json", "cache-control", "no-store"))
                .withMultiValueHeaders(Map.of("vary", List.of("accept")))
                .withBody(Base64.getEncoder().encodeToString("{}".getBytes(StandardCharsets.UTF_8)))
                .withIsBase64Encoded(true)
                .build();
        toJson(responses, response);
    }

    private static String toJson(PojoSerializer<Object> serializer, Object value) {
        var out = new ByteArrayOutputStream();
        serializer.toJson(value, out);
        return out.toString(StandardCharsets.UTF_8);
    }
}
