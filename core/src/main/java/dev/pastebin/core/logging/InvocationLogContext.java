package dev.pastebin.core.logging;

import com.amazonaws.services.lambda.runtime.Context;
import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.function.aws.DefaultDiagnosticInfoPopulator;
import io.micronaut.function.aws.DiagnosticInfoPopulator;
import io.micronaut.function.aws.event.AfterExecutionEvent;
import jakarta.inject.Singleton;
import org.slf4j.MDC;

/**
 * Puts the invocation's {@code requestId} and {@code functionName} in the MDC. Both kinds of handler call the
 * {@link DiagnosticInfoPopulator} bean with the Lambda Context before any work: {@code MicronautRequestHandler}
 * (upload, sweeper) and {@code APIGatewayV2HTTPEventFunction} (create, read, remove). Micronaut's default one uses
 * its own key names ({@code AWSRequestId}, ...); these are the names the log lines and the queries use.
 *
 * <p>An execution environment serves one invocation after another on the same thread: the MDC is cleared
 * before each invocation, so nothing of the previous one survives, and after each request handler's
 * invocation ({@link AfterExecutionEvent}). The HTTP functions clear it when the response is done
 * ({@code dev.pastebin.api.http.PasteLogContextFilter}).
 */
@Singleton
@Replaces(DefaultDiagnosticInfoPopulator.class)
@Requires(classes = DiagnosticInfoPopulator.class)
public class InvocationLogContext implements DiagnosticInfoPopulator, ApplicationEventListener<AfterExecutionEvent> {

    /** Set by the Lambda runtime; the Context's own name takes precedence. */
    private static final String FUNCTION_NAME_VARIABLE = "AWS_LAMBDA_FUNCTION_NAME";

    @Override
    public void populateMappingDiagnosticContextValues(Context context) {
        MDC.clear();
        putIfPresent(LogContext.REQUEST_ID, context.getAwsRequestId());
        String functionName = context.getFunctionName();
        putIfPresent(
                LogContext.FUNCTION_NAME, functionName != null ? functionName : System.getenv(FUNCTION_NAME_VARIABLE));
    }

    /** X-Ray's trace id is in Lambda's own REPORT lines and in the traces: not repeated on every line. */
    @Override
    public void populateMappingDiagnosticContextWithXrayTraceId() {}

    @Override
    public void onApplicationEvent(AfterExecutionEvent event) {
        MDC.clear();
    }

    private static void putIfPresent(String key, String value) {
        if (value != null && !value.isBlank()) {
            MDC.put(key, value);
        }
    }
}
