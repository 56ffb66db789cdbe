package dev.pastebin.local.template;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One {@code AWS::Serverless::Function} of the SAM template, with Globals and parameter values applied.
 *
 * @param logicalId   the template's logical id, also used as the local function name
 * @param handler     the Handler string handed to the runtime interface client
 * @param codeUri     the CodeUri as written in the template, resolved against the template's directory
 * @param buildMethod the Metadata.BuildMethod ({@code makefile}: built as {@code sam build} builds it), or null
 * @param environment the Environment.Variables, values still unresolved where they use intrinsics other than
 *                    a parameter {@code Ref} (see {@link TemplateValues})
 */
public record FunctionDefinition(
        String logicalId,
        String handler,
        String runtime,
        Path codeUri,
        String buildMethod,
        int memorySizeMb,
        Duration timeout,
        Map<String, Object> environment,
        List<HttpRoute> httpRoutes,
        List<SqsTrigger> sqsTriggers,
        List<ScheduleTrigger> scheduleTriggers) {

    /**
     * An {@code HttpApi} event: method (or ANY) and path, possibly with {@code {param}} / {@code {proxy+}}.
     *
     * @param authorization the authorizer API Gateway runs before invoking the function; empty for an open route
     */
    public record HttpRoute(String eventName, String method, String path, Optional<RouteAuthorization> authorization) {

        /** An open route: no authorizer. */
        public HttpRoute(String eventName, String method, String path) {
            this(eventName, method, path, Optional.empty());
        }

        /** The route key as API Gateway writes it in the event, e.g. {@code GET /pastes/{shortCode}}. */
        public String routeKey() {
            return method + " " + path;
        }
    }

    /**
     * An {@code SQS} event source mapping.
     *
     * @param queue              the Queue property: an ARN, or an intrinsic such as {@code !GetAtt Q.Arn}
     * @param maximumConcurrency ScalingConfig.MaximumConcurrency: the most batches in flight at once
     */
    public record SqsTrigger(
            String eventName,
            Object queue,
            int batchSize,
            Duration maximumBatchingWindow,
            boolean reportBatchItemFailures,
            boolean enabled,
            int maximumConcurrency) {}

    /** A {@code Schedule} (EventBridge rule) or {@code ScheduleV2} event. */
    public record ScheduleTrigger(
            String eventName, String expression, Optional<Duration> rate, Optional<String> input, boolean enabled) {}
}
