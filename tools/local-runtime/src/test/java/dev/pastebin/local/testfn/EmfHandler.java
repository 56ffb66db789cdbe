package dev.pastebin.local.testfn;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;

/**
 * Test-only HTTP handler that prints the request body's lines to stdout, as a function writes its metric
 * lines (Embedded Metric Format) and log lines: the test decides what the function "emits".
 */
public class EmfHandler implements RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse> {

    @Override
    public APIGatewayV2HTTPResponse handleRequest(APIGatewayV2HTTPEvent event, Context context) {
        String body = event.getBody() == null ? "" : event.getBody();
        long lines = body.lines().peek(System.out::println).count();
        System.out.flush();
        return APIGatewayV2HTTPResponse.builder()
                .withStatusCode(200)
                .withBody(lines + " lines printed")
                .build();
    }
}
