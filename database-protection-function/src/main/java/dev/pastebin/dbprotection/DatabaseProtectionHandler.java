package dev.pastebin.dbprotection;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.CloudFormationCustomResourceEvent;
import dev.pastebin.customresource.CustomResourceHandler;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.lambda.powertools.cloudformation.Response;

/**
 * The custom resource {@code Custom::DatabaseProtection} (infra/template.yaml): the deletion protection of the Aurora
 * cluster the stack creates. The rollback of a failed first deploy deletes what the deploy created, and RDS refuses
 * to delete a protected cluster: created protected, it would leave the stack ROLLBACK_FAILED. So the cluster is
 * created unprotected, and this resource, made once the cluster and its instance exist and depending on both (so that
 * a rollback deletes it before them):
 *
 * <ul>
 *   <li>on Create and Update, sets the cluster's protection to its {@code DeletionProtection} (the template's
 *       DatabaseDeletionProtection);
 *   <li>on Delete, turns it off only while CloudFormation rolls back the stack's creation ({@value
 *       #CREATION_ROLLING_BACK}), whose next steps delete the instance and the cluster (which leaves its final
 *       snapshot). Any other Delete leaves it as it is: a stack's deletion must meet the protection
 *       (docs/operating.md, "Removing the stack"), and a cluster an update replaced keeps it, and so its data.
 * </ul>
 *
 * Every path answers, SUCCESS or FAILED with a short reason; without an answer CloudFormation would wait for the
 * resource's ServiceTimeout.
 */
public final class DatabaseProtectionHandler extends CustomResourceHandler {

    /** The stack's status while CloudFormation deletes what a failed (or cancelled) creation made. */
    static final String CREATION_ROLLING_BACK = "ROLLBACK_IN_PROGRESS";
    /** Kept back from the function's remaining time for answering CloudFormation. */
    static final Duration ANSWER_MARGIN = Duration.ofSeconds(15);
    /** CloudFormation shows a reason in the stack's events; the whole answer must stay within 4 KB. */
    static final int MAX_REASON = 400;

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseProtectionHandler.class);

    private final Supplier<DatabaseClusters> clusters;

    /** Lambda's constructor: the SDK's clients, in the function's region. */
    public DatabaseProtectionHandler() {
        this(AwsDatabaseClusters::open);
    }

    DatabaseProtectionHandler(Supplier<DatabaseClusters> clusters) {
        super(UrlConnectionHttpClient.create());
        this.clusters = clusters;
    }

    @Override
    protected Response create(CloudFormationCustomResourceEvent event, Context context) {
        return answer(event, context, this::protect);
    }

    @Override
    protected Response update(CloudFormationCustomResourceEvent event, Context context) {
        return answer(event, context, this::protect);
    }

    @Override
    protected Response delete(CloudFormationCustomResourceEvent event, Context context) {
        return answer(event, context, this::releaseForTheCreationsRollback);
    }

    private interface Action {
        String apply(ProtectionRequest request, DatabaseClusters clusters, Duration budget);
    }

    private String protect(ProtectionRequest request, DatabaseClusters clusters, Duration budget) {
        if (!clusters.setDeletionProtection(request.clusterId(), request.protect(), budget)) {
            throw new IllegalStateException("no cluster " + request.clusterId());
        }
        return "deletion protection of cluster " + request.clusterId() + (request.protect() ? " on" : " off");
    }

    private String releaseForTheCreationsRollback(
            ProtectionRequest request, DatabaseClusters clusters, Duration budget) {
        String status = clusters.stackStatus(request.stackId());
        if (!CREATION_ROLLING_BACK.equals(status)) {
            return "deletion protection of cluster " + request.clusterId() + " left as it is (stack " + status + ")";
        }
        boolean released = clusters.setDeletionProtection(request.clusterId(), false, budget);
        return released
                ? "deletion protection of cluster " + request.clusterId() + " off: the rollback of the stack's"
                        + " creation deletes it next"
                : "no cluster " + request.clusterId() + " to release";
    }

    private Response answer(CloudFormationCustomResourceEvent event, Context context, Action action) {
        String physicalId = physicalResourceId(event);
        try {
            ProtectionRequest request = ProtectionRequest.from(event);
            Duration budget =
                    Duration.ofMillis(context.getRemainingTimeInMillis()).minus(ANSWER_MARGIN);
            // Started per invocation, so that a failure to start is answered too.
            try (DatabaseClusters started = clusters.get()) {
                String done = action.apply(request, started, budget.isNegative() ? Duration.ZERO : budget);
                LOG.info("{} of {}: {}", event.getRequestType(), event.getLogicalResourceId(), done);
                // a Delete keeps the id CloudFormation holds; a Create or Update names the cluster it protects
                return Response.builder()
                        .status(Response.Status.SUCCESS)
                        .physicalResourceId("Delete".equals(event.getRequestType()) ? physicalId : request.clusterId())
                        .build();
            }
        } catch (Throwable e) {
            // An Error too (a class missing from the artifact, memory): Powertools answers exceptions only, and
            // without an answer CloudFormation waits for the resource's ServiceTimeout.
            LOG.error("{} of {} failed", event.getRequestType(), event.getLogicalResourceId(), e);
            return Response.builder()
                    .status(Response.Status.FAILED)
                    .physicalResourceId(physicalId)
                    .reason(reason(e))
                    .build();
        }
    }

    /** The resource's id: the cluster's, which Create answers; the request's when a Create failed before that. */
    private static String physicalResourceId(CloudFormationCustomResourceEvent event) {
        if (event.getPhysicalResourceId() != null
                && !event.getPhysicalResourceId().isBlank()) {
            return event.getPhysicalResourceId();
        }
        Object cluster = event.getResourceProperties() == null
                ? null
                : event.getResourceProperties().get(ProtectionRequest.CLUSTER_PROPERTY);
        return cluster != null ? String.valueOf(cluster) : "not-protected:" + event.getRequestId();
    }

    /** An exception as one short line: its type and message. */
    static String reason(Throwable e) {
        String line = (e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()))
                .replace('\n', ' ')
                .replace('\r', ' ');
        return line.length() <= MAX_REASON ? line : line.substring(0, MAX_REASON - 3) + "...";
    }
}
