package dev.pastebin.edgeacl;

import com.amazonaws.services.lambda.runtime.events.CloudFormationCustomResourceEvent;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One custom-resource request as an operation on the us-east-1 stack.
 *
 * @param stackName  the us-east-1 stack: the requesting stack's name with {@link #STACK_NAME_SUFFIX}, so it is known
 *                   before anything is created (the answer's PhysicalResourceId on every path, also a failed Create,
 *                   whose rollback then deletes what was left) and never changes; the template's IAM policy names it
 * @param parameters the stack's parameters: the resource's {@code StackParameters} property
 */
record EdgeAclRequest(StackOperation operation, String stackName, Map<String, String> parameters) {

    static final String STACK_NAME_SUFFIX = "-edge-waf";

    /** The resource property whose entries become the stack's parameters; other properties only trigger updates. */
    static final String PARAMETERS_PROPERTY = "StackParameters";

    /** {@code arn:<partition>:cloudformation:<region>:<account>:stack/<name>/<id>}. */
    private static final Pattern STACK_ID = Pattern.compile("^arn:[^:]+:cloudformation:[^:]*:[^:]*:stack/([^/]+)/.*$");

    EdgeAclRequest {
        parameters = Map.copyOf(parameters);
    }

    static EdgeAclRequest from(CloudFormationCustomResourceEvent event) {
        return new EdgeAclRequest(
                StackOperation.of(event.getRequestType()),
                stackNameFor(event.getStackId()),
                parameters(event.getResourceProperties()));
    }

    /** The us-east-1 stack's name for the requesting stack {@code stackId}. */
    static String stackNameFor(String stackId) {
        Matcher m = STACK_ID.matcher(stackId == null ? "" : stackId);
        if (!m.matches()) {
            throw new IllegalArgumentException("the event's StackId is not a stack ARN: " + stackId);
        }
        return m.group(1) + STACK_NAME_SUFFIX;
    }

    private static Map<String, String> parameters(Map<String, Object> properties) {
        Object given = properties == null ? null : properties.get(PARAMETERS_PROPERTY);
        if (given == null) {
            return Map.of();
        }
        if (!(given instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(PARAMETERS_PROPERTY + " is not a map of parameter values: " + given);
        }
        Map<String, String> parameters = new LinkedHashMap<>();
        map.forEach((name, value) -> parameters.put(String.valueOf(name), String.valueOf(value)));
        return parameters;
    }
}
