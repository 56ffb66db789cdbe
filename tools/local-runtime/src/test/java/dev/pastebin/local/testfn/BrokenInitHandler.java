package dev.pastebin.local.testfn;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import java.util.Map;

/** Test-only handler whose construction fails: an init error, as with a function that cannot start. */
public class BrokenInitHandler implements RequestHandler<Map<String, Object>, String> {

    public BrokenInitHandler() {
        throw new IllegalStateException("init failed on purpose");
    }

    @Override
    public String handleRequest(Map<String, Object> event, Context context) {
        return "unreachable";
    }
}
