package dev.pastebin.create;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.tests.EventLoader;
import dev.pastebin.api.http.RequestCredentials;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The caller's subject as API Gateway's JWT authorizer describes it, read from the sample events. */
class RequestCredentialsTest {

    @Test
    void theJwtSubjectIsTheVerifiedSubject() {
        APIGatewayV2HTTPEvent event = EventLoader.loadApiGatewayHttpEvent("events/create-paste-json.json");

        assertEquals(Optional.of("7d1c9a3e-5b2f-4e61-9c0a-1f2e3d4c5b6a"), RequestCredentials.verifiedSubject(event));
    }

    @Test
    void withoutAnAuthorizerThereIsNoSubject() {
        APIGatewayV2HTTPEvent event = EventLoader.loadApiGatewayHttpEvent("events/create-paste-text.json");

        assertEquals(Optional.empty(), RequestCredentials.verifiedSubject(event));
    }

    @Test
    void aBlankSubjectOrNoClaimsIsNoSubject() {
        APIGatewayV2HTTPEvent event = EventLoader.loadApiGatewayHttpEvent("events/create-paste-json.json");
        event.getRequestContext().getAuthorizer().getJwt().setClaims(Map.of("sub", " "));
        assertEquals(Optional.empty(), RequestCredentials.verifiedSubject(event));

        event.getRequestContext().getAuthorizer().getJwt().setClaims(null);
        assertEquals(Optional.empty(), RequestCredentials.verifiedSubject(event));

        event.getRequestContext().setAuthorizer(null);
        assertEquals(Optional.empty(), RequestCredentials.verifiedSubject(event));
    }
}
