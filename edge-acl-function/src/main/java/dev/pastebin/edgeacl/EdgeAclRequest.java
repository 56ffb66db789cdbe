package dev.pastebin.edgeacl;

import com.amazonaws.services.lambda.runtime.events.CloudFormationCustomResourceEvent;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One custom-resource request as an operation on the us-east-1 stack.
 *
 * @param stackName    the us-east-1 stack: on Create, named after the requesting stack and its region
 *                     ({@link #stackNameFor}); on Update and Delete, the PhysicalResourceId CloudFormation holds,
 *                     which may be a {@link #notCreated} id (nothing to update or delete) or, for a stack created
 *                     before the names carried the region, {@link #legacyNameFor}
 * @param owner        the requesting stack's StackId: the value of {@link #OWNER_TAG} on the stacks it created
 * @param legacyName   the name this requesting stack's us-east-1 stack had before names carried the region
 * @param parameters   the stack's parameters: the resource's {@code StackParameters} property
 */
record EdgeAclRequest(
        StackOperation operation, String stackName, String owner, String legacyName, Map<String, String> parameters) {

    static final String STACK_NAME_SUFFIX = "-edge-waf";

    /** The tag on every us-east-1 stack the function creates: the StackId of the stack that asked for it. */
    static final String OWNER_TAG = "pastebin:owner-stack-id";

    /**
     * The PhysicalResourceId of a Create that created nothing (the name was taken, or it failed before CreateStack):
     * no stack name has a colon, so the Delete of CloudFormation's rollback recognises it and deletes nothing.
     */
    static final String NOT_CREATED = "not-created:";

    /** CloudFormation's limit on a stack name's length. */
    static final int MAX_STACK_NAME = 128;

    /** The resource property whose entries become the stack's parameters; other properties only trigger updates. */
    static final String PARAMETERS_PROPERTY = "StackParameters";

    /** {@code arn:<partition>:cloudformation:<region>:<account>:stack/<name>/<id>}. */
    private static final Pattern STACK_ID =
            Pattern.compile("^arn:[^:]+:cloudformation:([a-z0-9-]+):[^:]*:stack/([^/]+)/.*$");

    EdgeAclRequest {
        parameters = Map.copyOf(parameters);
    }

    static EdgeAclRequest from(CloudFormationCustomResourceEvent event) {
        StackOperation operation = StackOperation.of(event.getRequestType());
        String stackName;
        if (operation == StackOperation.CREATE) {
            stackName = stackNameFor(event.getStackId());
        } else {
            stackName = event.getPhysicalResourceId();
            if (stackName == null || stackName.isBlank()) {
                throw new IllegalArgumentException("the " + operation + " names no PhysicalResourceId");
            }
        }
        return new EdgeAclRequest(
                operation,
                stackName,
                event.getStackId(),
                legacyNameFor(event.getStackId()),
                parameters(event.getResourceProperties()));
    }

    /**
     * The us-east-1 stack's name for the requesting stack {@code stackId}: its name and region, so that stacks of
     * one name in two regions of an account never share one.
     *
     * @throws IllegalArgumentException when {@code stackId} is not a stack's ARN, or the name would be longer than
     *                                  CloudFormation allows
     */
    static String stackNameFor(String stackId) {
        Matcher m = stackId(stackId);
        String name = m.group(2) + "-" + m.group(1) + STACK_NAME_SUFFIX;
        if (name.length() > MAX_STACK_NAME) {
            throw new IllegalArgumentException("the us-east-1 stack's name " + name + " would be longer than "
                    + MAX_STACK_NAME + " characters: give the stack a shorter name, or give a web ACL of your own"
                    + " as EdgeWebAclArn");
        }
        return name;
    }

    /** The name the us-east-1 stack had before the names carried the requesting stack's region. */
    static String legacyNameFor(String stackId) {
        return stackId(stackId).group(2) + STACK_NAME_SUFFIX;
    }

    /** The PhysicalResourceId of a Create that created nothing. */
    static String notCreated(String what) {
        return NOT_CREATED + what;
    }

    static boolean isNotCreated(String physicalId) {
        return physicalId != null && physicalId.startsWith(NOT_CREATED);
    }

    private static Matcher stackId(String stackId) {
        Matcher m = STACK_ID.matcher(stackId == null ? "" : stackId);
        if (!m.matches()) {
            throw new IllegalArgumentException("the event's StackId is not a stack ARN: " + stackId);
        }
        return m;
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
