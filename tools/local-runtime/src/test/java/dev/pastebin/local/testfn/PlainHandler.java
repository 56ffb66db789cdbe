package dev.pastebin.local.testfn;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import java.util.Map;

/** Test-only handler returning a plain object without statusCode (API Gateway's payload 2.0 inference). */
public class PlainHandler implements RequestHandler<Map<String, Object>, Map<String, String>> {

    @Override
    public Map<String, String> handleRequest(Map<String, Object> event, Context context) {
        return Map.of("hello", "world");
    }
}
