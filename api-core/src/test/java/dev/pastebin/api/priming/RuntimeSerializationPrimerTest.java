package dev.pastebin.api.priming;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.serialization.factories.JacksonFactory;
import java.lang.reflect.Type;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RuntimeSerializationPrimerTest {

    private static final PrimingRequest CREATE =
            new PrimingRequest("POST", "/pastes", Map.of("content-type", "text/plain; charset=utf-8"), "", 400);

    @Test
    void roundTripsEachPrimingEventAndAResponseThroughTheRuntimesSerializers() {
        var primer = new RuntimeSerializationPrimer(List.of(
                CREATE, new PrimingRequest("GET", "/pastes/00000000", Map.of("accept", "text/plain"), null, 404)));

        assertDoesNotThrow(primer::prime);
    }

    @Test
    void thePrimingEventIsWhatTheRuntimeReadsFromTheWire() {
        // the event JSON API Gateway sends, read by the serializer the runtime uses for this type
        String json = """
                {"version":"2.0","routeKey":"POST /pastes","rawPath":"/pastes","rawQueryString":"",
                 "headers":{"content-type":"text/plain; charset=utf-8"},
                 "requestContext":{"http":{"method":"POST","path":"/pastes","protocol":"HTTP/1.1",
                 "sourceIp":"127.0.0.1","userAgent":"priming"},"requestId":"r","routeKey":"POST /pastes",
                 "stage":"$default","timeEpoch":1},"body":"","isBase64Encoded":true}""";
        var fromWire = (APIGatewayV2HTTPEvent) JacksonFactory.getInstance()
                .getSerializer((Type) APIGatewayV2HTTPEvent.class)
                .fromJson(json);
        APIGatewayV2HTTPEvent primed = ApiRequestPrimer.event(CREATE);

        assertEquals(fromWire.getRawPath(), primed.getRawPath());
        assertEquals(fromWire.getHeaders(), primed.getHeaders());
        assertEquals(
                fromWire.getRequestContext().getHttp().getMethod(),
                primed.getRequestContext().getHttp().getMethod());
        assertEquals(fromWire.getIsBase64Encoded(), primed.getIsBase64Encoded());
    }
}
