package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The caller as API Gateway's JWT authorizer describes it, read from the sample events. */
class CallerBinderTest {

    @Test
    void theJwtSubjectIsTheUser() {
        APIGatewayV2HTTPEvent event = EventLoader.loadApiGatewayHttpEvent("events/create-paste-json.json");

        assertEquals(new Caller("7d1c9a3e-5b2f-4e61-9c0a-1f2e3d4c5b6a"), CallerBinder.callerOf(event));
    }

    @Test
    void withoutAnAuthorizerTheCallerIsAnonymous() {
        APIGatewayV2HTTPEvent event = EventLoader.loadApiGatewayHttpEvent("events/create-paste-text.json");

        assertEquals(Caller.ANONYMOUS, CallerBinder.callerOf(event));
    }

    @Test
    void aBlankSubjectOrNoClaimsIsAnonymous() {
        APIGatewayV2HTTPEvent event = EventLoader.loadApiGatewayHttpEvent("events/create-paste-json.json");
        event.getRequestContext().getAuthorizer().getJwt().setClaims(Map.of("sub", " "));
        assertEquals(Caller.ANONYMOUS, CallerBinder.callerOf(event));

        event.getRequestContext().getAuthorizer().getJwt().setClaims(null);
        assertEquals(Caller.ANONYMOUS, CallerBinder.callerOf(event));

        event.getRequestContext().setAuthorizer(null);
        assertEquals(Caller.ANONYMOUS, CallerBinder.callerOf(event));
    }
}
