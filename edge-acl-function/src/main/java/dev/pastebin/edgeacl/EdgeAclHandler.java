package dev.pastebin.edgeacl;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.CloudFormationCustomResourceEvent;
import dev.pastebin.customresource.CustomResourceHandler;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.lambda.powertools.cloudformation.Response;

/**
 * The custom resource {@code Custom::EdgeWebAcl} (infra/template.yaml): keeps a stack of infra/edge-waf.yaml in
 * us-east-1, where CloudFront web ACLs live, in step with the stack that declares it, in any region. Powertools
 * answers the pre-signed ResponseURL, and a refused answer is an ERROR ({@link CustomResourceHandler}); every path
 * here returns an answer (never throws), SUCCESS with Data {@code {WebAclArn}} or FAILED with a short reason: without
 * an answer CloudFormation would wait an hour. The PhysicalResourceId is the us-east-1 stack's name once a Create has
 * made that stack; a Create that made none (its name was taken by a stack not created for this one, or it failed
 * before) answers a {@code not-created:} id instead, so that the Delete of CloudFormation's rollback deletes nothing.
 */
public final class EdgeAclHandler extends CustomResourceHandler {

    private static final Logger LOG = LoggerFactory.getLogger(EdgeAclHandler.class);

    private final Map<String, String> environment;
    private final Function<EdgeAclSettings, EdgeAclStacks> stacks;

    /** Lambda's constructor: the process environment, the settings' CloudFormation client. */
    public EdgeAclHandler() {
        this(System.getenv(), EdgeAclStacks::open);
    }

    EdgeAclHandler(Map<String, String> environment, Function<EdgeAclSettings, EdgeAclStacks> stacks) {
        super(UrlConnectionHttpClient.create());
        this.environment = environment;
        this.stacks = stacks;
    }

    @Override
    protected Response create(CloudFormationCustomResourceEvent event, Context context) {
        return answer(event, context);
    }

    @Override
    protected Response update(CloudFormationCustomResourceEvent event, Context context) {
        return answer(event, context);
    }

    @Override
    protected Response delete(CloudFormationCustomResourceEvent event, Context context) {
        return answer(event, context);
    }

    private Response answer(CloudFormationCustomResourceEvent event, Context context) {
        String physicalId = physicalResourceId(event);
        EdgeAclRequest request;
        try {
            request = EdgeAclRequest.from(event);
        } catch (Throwable e) {
            return failed(physicalId, "invalid request: " + Reasons.of(e));
        }
        // The function's context: its settings, CloudFormation client and template. Started per invocation, so
        // that a failure to start is answered too (Lambda would otherwise fail the Init and never answer).
        try {
            EdgeAclSettings settings = EdgeAclSettings.fromEnvironment(environment);
            Duration budget = Deadline.waitBudget(
                    Duration.ofMillis(context.getRemainingTimeInMillis()), settings.deadlineMargin());
            try (EdgeAclStacks started = stacks.apply(settings)) {
                StackOutcome outcome = started.apply(request, budget);
                return toResponse(outcome.createdStack().orElse(physicalId), outcome);
            }
        } catch (Throwable e) {
            // An Error too (a class missing from the artifact, memory): Powertools answers exceptions only, and
            // without an answer CloudFormation waits for the resource's ServiceTimeout.
            LOG.error("{} of stack {} failed", request.operation(), physicalId, e);
            return failed(physicalId, Reasons.of(e));
        }
    }

    /**
     * The PhysicalResourceId of an answer that names no stack the function made: on Update and Delete, the one
     * CloudFormation holds; on Create, a {@code not-created:} id (the stack it would have made, or the request).
     */
    private static String physicalResourceId(CloudFormationCustomResourceEvent event) {
        if (!"Create".equals(event.getRequestType()) && event.getPhysicalResourceId() != null) {
            return event.getPhysicalResourceId();
        }
        try {
            return EdgeAclRequest.notCreated(EdgeAclRequest.stackNameFor(event.getStackId()));
        } catch (RuntimeException e) {
            return EdgeAclRequest.notCreated(String.valueOf(event.getRequestId()));
        }
    }

    private static Response toResponse(String physicalId, StackOutcome outcome) {
        if (!outcome.succeeded()) {
            return failed(physicalId, outcome.reason());
        }
        LOG.info("Stack {} done: {}", physicalId, outcome.webAclArn().orElse("(deleted or left)"));
        Response.Builder answer = Response.builder()
                .status(Response.Status.SUCCESS)
                .physicalResourceId(physicalId)
                .value(outcome.webAclArn()
                        .map(arn -> Map.of(EdgeAclStacks.WEB_ACL_OUTPUT, arn))
                        .orElse(Map.of()));
        if (!outcome.reason().isEmpty()) {
            answer.reason(outcome.reason());
        }
        return answer.build();
    }

    private static Response failed(String physicalId, String reason) {
        String shortReason = Reasons.shorten(reason);
        LOG.error("Answering FAILED for stack {}: {}", physicalId, shortReason);
        return Response.builder()
                .status(Response.Status.FAILED)
                .physicalResourceId(physicalId)
                .reason(shortReason)
                .build();
    }
}
