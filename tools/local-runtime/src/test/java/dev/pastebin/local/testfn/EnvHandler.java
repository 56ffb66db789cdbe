package dev.pastebin.local.testfn;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import java.util.Map;
import java.util.TreeMap;

/** Test-only handler answering with its environment variables. */
public class EnvHandler implements RequestHandler<Map<String, Object>, Map<String, String>> {

    @Override
    public Map<String, String> handleRequest(Map<String, Object> event, Context context) {
        return new TreeMap<>(System.getenv());
    }
}
