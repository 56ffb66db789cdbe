package dev.pastebin.recorder;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * Appends one JSON line per AWS SDK call of this process (a completed or failed execution, retries included in it)
 * to {@code $PASTEBIN_RECORD_CALLS_DIR/<function>-<pid>.jsonl}; the function is {@code AWS_LAMBDA_FUNCTION_NAME}
 * (the template's logical id under the local runtime). Without {@code PASTEBIN_RECORD_CALLS_DIR} it does nothing.
 *
 * <p>The SDK creates it for every client it builds, through its global registration file
 * ({@code software/amazon/awssdk/global/handlers/execution.interceptors} in this jar): the product's code is not
 * changed. A failure to record is printed to stderr once and never reaches the call. The line's fields are in
 * {@link CallLine}.
 */
public final class CallRecorder implements ExecutionInterceptor {

    /** The directory the lines go to; unset: nothing is recorded. */
    public static final String DIRECTORY_VARIABLE = "PASTEBIN_RECORD_CALLS_DIR";

    /** The function's name, which Lambda (and the local runtime) sets. */
    public static final String FUNCTION_VARIABLE = "AWS_LAMBDA_FUNCTION_NAME";

    /** The signed request of the last attempt, as it went out (endpoint resolved, SigV4 applied). */
    private static final ExecutionAttribute<SdkHttpRequest> SENT =
            new ExecutionAttribute<>("dev.pastebin.recorder.CallRecorder.SentRequest");

    private final RecordFile file;
    private final String function;
    private final Map<String, String> environment;

    /** What the SDK instantiates: the process's environment decides. */
    public CallRecorder() {
        this(System.getenv());
    }

    CallRecorder(Map<String, String> environment) {
        String directory = environment.get(DIRECTORY_VARIABLE);
        this.function = environment.getOrDefault(FUNCTION_VARIABLE, "unknown-function");
        this.environment = Map.copyOf(environment);
        this.file = directory == null || directory.isBlank()
                ? null
                : RecordFile.of(
                        Path.of(directory), function, ProcessHandle.current().pid());
    }

    @Override
    public void beforeTransmission(Context.BeforeTransmission context, ExecutionAttributes attributes) {
        if (file == null) {
            return;
        }
        try {
            attributes.putAttribute(SENT, context.httpRequest());
        } catch (RuntimeException e) {
            RecordFile.reportOnce(e);
        }
    }

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        record(
                context.request(),
                Optional.of(context.httpRequest()),
                Optional.of(context.httpResponse()),
                null,
                attributes);
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        record(context.request(), context.httpRequest(), context.httpResponse(), context.exception(), attributes);
    }

    private void record(
            SdkRequest request,
            Optional<SdkHttpRequest> marshalled,
            Optional<SdkHttpResponse> response,
            Throwable failure,
            ExecutionAttributes attributes) {
        if (file == null) {
            return;
        }
        try {
            SdkHttpRequest sent = attributes.getOptionalAttribute(SENT).orElse(marshalled.orElse(null));
            String line = CallLine.of(
                    function,
                    attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME),
                    attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME),
                    request,
                    sent,
                    response.map(SdkHttpResponse::statusCode).orElse(null),
                    failure == null ? null : failure.getClass().getName(),
                    environment);
            file.append(line);
        } catch (RuntimeException | LinkageError e) {
            RecordFile.reportOnce(e);
        }
    }
}
