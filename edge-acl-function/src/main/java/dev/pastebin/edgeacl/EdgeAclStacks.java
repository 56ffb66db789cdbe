package dev.pastebin.edgeacl;

import dev.pastebin.edgeacl.StackStatuses.StackState;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.waiters.WaiterOverrideConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.cloudformation.model.AlreadyExistsException;
import software.amazon.awssdk.services.cloudformation.model.CloudFormationException;
import software.amazon.awssdk.services.cloudformation.model.DescribeStacksRequest;
import software.amazon.awssdk.services.cloudformation.model.Output;
import software.amazon.awssdk.services.cloudformation.model.Parameter;
import software.amazon.awssdk.services.cloudformation.model.Stack;
import software.amazon.awssdk.services.cloudformation.model.StackEvent;
import software.amazon.awssdk.services.cloudformation.model.Tag;
import software.amazon.awssdk.services.cloudformation.waiters.CloudFormationWaiter;

/**
 * The us-east-1 stack of edge-waf.yaml: created, updated or deleted as a request asks, waited for with the SDK's
 * waiters until it settles or the wait budget runs out, then described to tell how it ended.
 */
final class EdgeAclStacks implements AutoCloseable {

    static final String WEB_ACL_OUTPUT = "WebAclArn";

    private static final Logger LOG = LoggerFactory.getLogger(EdgeAclStacks.class);
    private static final String CLASSPATH = "classpath:";
    /** Enough looks for any budget: the wait budget, not a count, ends a wait. */
    private static final int UNBOUNDED_ATTEMPTS = 100_000;

    private final CloudFormationClient cloudFormation;
    private final String templateBody;
    private final Duration pollInterval;

    EdgeAclStacks(CloudFormationClient cloudFormation, String templateBody, Duration pollInterval) {
        this.cloudFormation = cloudFormation;
        this.templateBody = templateBody;
        this.pollInterval = pollInterval;
    }

    /** The client for the settings' region (and endpoint) and the template they name. */
    static EdgeAclStacks open(EdgeAclSettings settings) {
        String body = template(settings.template());
        var builder = CloudFormationClient.builder()
                .region(Region.of(settings.region()))
                .httpClient(UrlConnectionHttpClient.create());
        settings.cloudFormationEndpoint().ifPresent(builder::endpointOverride);
        return new EdgeAclStacks(builder.build(), body, settings.pollInterval());
    }

    static String template(String location) {
        try {
            if (location.startsWith(CLASSPATH)) {
                String resource = location.substring(CLASSPATH.length());
                try (InputStream in = EdgeAclStacks.class.getClassLoader().getResourceAsStream(resource)) {
                    if (in == null) {
                        throw new IllegalStateException("the artifact carries no " + resource);
                    }
                    return new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
            return Files.readString(Path.of(location));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the template " + location, e);
        }
    }

    /**
     * Carries out the request, waiting at most {@code waitBudget}; never waits when the budget is zero. Only a stack
     * whose {@link EdgeAclRequest#OWNER_TAG} names the requesting stack is updated or deleted: a name can be taken
     * by another stack's (a namesake elsewhere, a stack left over), and a Create that finds its name taken fails
     * without touching it.
     */
    StackOutcome apply(EdgeAclRequest request, Duration waitBudget) {
        String name = request.stackName();
        if (waitBudget.isZero() || waitBudget.isNegative()) {
            return StackOutcome.failed("no time left to " + request.operation() + " stack " + name
                    + " within the function's deadline (less than the margin remains); nothing was started");
        }
        return switch (request.operation()) {
            case CREATE -> create(request, waitBudget);
            case UPDATE -> update(request, waitBudget);
            case DELETE -> delete(request, waitBudget);
        };
    }

    /** Whose a stack is, by its owner tag. */
    private enum Owner {
        /** Tagged with the requesting stack's id. */
        THIS_STACK,
        /** Untagged, under the name the requesting stack's stack had before names carried the region. */
        THIS_STACK_BEFORE_TAGS,
        /** Tagged with another stack's id, or untagged under another name. */
        ANOTHER
    }

    private static Owner owner(Stack stack, EdgeAclRequest request) {
        Optional<String> tag = ownerTag(stack);
        if (tag.isPresent()) {
            return tag.get().equals(request.owner()) ? Owner.THIS_STACK : Owner.ANOTHER;
        }
        return stack.stackName().equals(request.legacyName()) ? Owner.THIS_STACK_BEFORE_TAGS : Owner.ANOTHER;
    }

    private static Optional<String> ownerTag(Stack stack) {
        return stack.tags().stream()
                .filter(t -> EdgeAclRequest.OWNER_TAG.equals(t.key()))
                .map(Tag::value)
                .findFirst();
    }

    private static String whose(Stack stack) {
        return ownerTag(stack)
                .map(owner -> "its " + EdgeAclRequest.OWNER_TAG + " tag names " + owner)
                .orElse("it has no " + EdgeAclRequest.OWNER_TAG + " tag");
    }

    private StackOutcome create(EdgeAclRequest request, Duration waitBudget) {
        String name = request.stackName();
        try {
            cloudFormation.createStack(b -> b.stackName(name)
                    .templateBody(templateBody)
                    .parameters(parameters(request.parameters()))
                    .tags(ownerTag(request)));
            LOG.info("Creating stack {}", name);
        } catch (AlreadyExistsException e) {
            Optional<Stack> existing = state(name);
            if (existing.isEmpty() || owner(existing.get(), request) != Owner.THIS_STACK) {
                String why = existing.map(EdgeAclStacks::whose).orElse("it was being deleted");
                return StackOutcome.failed("stack " + name + " already exists in us-east-1 and was not created by"
                        + " this stack (" + why + "); it is left as it is. Delete it if it is a leftover, or deploy"
                        + " this stack under another name");
            }
            // Lambda retried the invocation of this same Create: the stack is this request's.
            LOG.info("Stack {} exists already, created for this stack: waiting for it", name);
        }
        waitFor(w -> w.waitUntilStackCreateComplete(describe(name), override(waitBudget)));
        return StackStatuses.settle(StackOperation.CREATE, false, name, state(name, StackOperation.CREATE))
                .createdAs(name);
    }

    private StackOutcome update(EdgeAclRequest request, Duration waitBudget) {
        String name = request.stackName();
        if (EdgeAclRequest.isNotCreated(name)) {
            return StackOutcome.failed("the resource " + name + " has no stack to update: its Create made none");
        }
        Optional<Stack> existing = state(name);
        if (existing.isEmpty()) {
            return StackOutcome.failed("stack " + name + " does not exist in us-east-1");
        }
        Owner owner = owner(existing.get(), request);
        if (owner == Owner.ANOTHER) {
            return StackOutcome.failed(
                    "stack " + name + " is not this stack's (" + whose(existing.get()) + "); it is left as it is");
        }
        // A stack from before the owner tags was created under this stack's old name: it gets its tag now.
        boolean unchanged = !update(
                name, request.parameters(), owner == Owner.THIS_STACK_BEFORE_TAGS ? List.of(ownerTag(request)) : null);
        if (!unchanged) {
            waitFor(w -> w.waitUntilStackUpdateComplete(describe(name), override(waitBudget)));
        }
        return StackStatuses.settle(StackOperation.UPDATE, unchanged, name, state(name, StackOperation.UPDATE));
    }

    private StackOutcome delete(EdgeAclRequest request, Duration waitBudget) {
        String name = request.stackName();
        if (EdgeAclRequest.isNotCreated(name)) {
            return StackOutcome.leftAlone("the Create made no stack: nothing to delete");
        }
        Optional<Stack> existing = state(name);
        if (existing.isPresent() && owner(existing.get(), request) != Owner.THIS_STACK) {
            String reason = "stack " + name + " is left as it is: " + whose(existing.get())
                    + ", not this stack (delete it by hand if it was this stack's)";
            LOG.warn(reason);
            return StackOutcome.leftAlone(reason);
        }
        if (existing.isPresent()) {
            cloudFormation.deleteStack(b -> b.stackName(name));
            LOG.info("Deleting stack {}", name);
            waitFor(w -> w.waitUntilStackDeleteComplete(describe(name), override(waitBudget)));
        }
        return StackStatuses.settle(StackOperation.DELETE, false, name, state(name, StackOperation.DELETE));
    }

    private static Tag ownerTag(EdgeAclRequest request) {
        return Tag.builder()
                .key(EdgeAclRequest.OWNER_TAG)
                .value(request.owner())
                .build();
    }

    /**
     * True when the update started; false when CloudFormation found nothing to change.
     *
     * @param tags the stack's tags from now on; null keeps them
     */
    private boolean update(String name, Map<String, String> parameters, List<Tag> tags) {
        try {
            cloudFormation.updateStack(b -> {
                b.stackName(name).templateBody(templateBody).parameters(parameters(parameters));
                if (tags != null) {
                    b.tags(tags);
                }
            });
            LOG.info("Updating stack {}", name);
            return true;
        } catch (CloudFormationException e) {
            if (e.getMessage() != null && e.getMessage().contains("No updates are to be performed")) {
                LOG.info("Stack {} is up to date", name);
                return false;
            }
            throw e;
        }
    }

    private interface Wait {
        void on(CloudFormationWaiter waiter);
    }

    /** A waiter that gives up (failure state or budget spent) throws; the stack's state says which, after. */
    private void waitFor(Wait wait) {
        try (CloudFormationWaiter waiter =
                CloudFormationWaiter.builder().client(cloudFormation).build()) {
            wait.on(waiter);
        } catch (SdkClientException e) {
            LOG.info("The wait ended without success: {}", e.getMessage());
        }
    }

    private WaiterOverrideConfiguration override(Duration waitBudget) {
        return WaiterOverrideConfiguration.builder()
                .waitTimeout(waitBudget)
                .maxAttempts(UNBOUNDED_ATTEMPTS)
                .backoffStrategyV2(BackoffStrategy.fixedDelayWithoutJitter(pollInterval))
                .build();
    }

    private static DescribeStacksRequest describe(String name) {
        return DescribeStacksRequest.builder().stackName(name).build();
    }

    private Optional<Stack> state(String name) {
        try {
            return cloudFormation.describeStacks(describe(name)).stacks().stream()
                    .findFirst();
        } catch (CloudFormationException e) {
            if (e.getMessage() != null && e.getMessage().contains("does not exist")) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private Optional<StackState> state(String name, StackOperation operation) {
        return state(name)
                .map(stack -> new StackState(
                        stack.stackStatusAsString(),
                        Optional.ofNullable(stack.stackStatusReason())
                                .filter(r -> !r.isBlank())
                                .or(() -> stack.stackStatusAsString().equals(operation.completeStatus())
                                        ? Optional.empty()
                                        : firstFailure(events(name), name, operation)),
                        stack.outputs().stream()
                                .filter(o -> WEB_ACL_OUTPUT.equals(o.outputKey()))
                                .map(Output::outputValue)
                                .findFirst()));
    }

    private List<StackEvent> events(String name) {
        return cloudFormation.describeStackEvents(b -> b.stackName(name)).stackEvents();
    }

    /**
     * The first resource failure of the latest operation: events come newest first, and the stack's own
     * {@code <OPERATION>_IN_PROGRESS} event starts the operation (earlier operations' failures are not this one's).
     */
    static Optional<String> firstFailure(List<StackEvent> newestFirst, String stackName, StackOperation operation) {
        List<StackEvent> failures = new ArrayList<>();
        for (StackEvent event : newestFirst) {
            String status = event.resourceStatusAsString();
            if (stackName.equals(event.logicalResourceId())) {
                if ((operation.name() + "_IN_PROGRESS").equals(status)) {
                    break;
                }
                continue;
            }
            if (status != null
                    && status.endsWith("_FAILED")
                    && event.resourceStatusReason() != null
                    && !event.resourceStatusReason().isBlank()) {
                failures.add(event);
            }
        }
        return failures.isEmpty()
                ? Optional.empty()
                : Optional.of(failures.getLast().logicalResourceId() + ": "
                        + failures.getLast().resourceStatusReason());
    }

    private static List<Parameter> parameters(Map<String, String> values) {
        return values.entrySet().stream()
                .map(e -> Parameter.builder()
                        .parameterKey(e.getKey())
                        .parameterValue(e.getValue())
                        .build())
                .toList();
    }

    @Override
    public void close() {
        cloudFormation.close();
    }
}
