package dev.pastebin.migrate;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.CloudFormationCustomResourceEvent;
import dev.pastebin.core.lambda.Deadline;
import dev.pastebin.customresource.CustomResourceHandler;
import io.micronaut.context.ApplicationContext;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.lambda.powertools.cloudformation.Response;

/**
 * The {@code Custom::DatabaseSchema} resource (docs/operating.md, "The database schema"): on Create and Update
 * migrates the schema and sets up the functions' roles (or only checks them), on Delete changes nothing.
 * Powertools answers CloudFormation's pre-signed URL, FAILED too when a method throws, and a refused answer is an
 * ERROR ({@link CustomResourceHandler}); this class makes sure every other way a run can end answers as well, with a
 * Reason that says why: a Micronaut context that cannot start (it is started here, on the first Create or Update,
 * not in the constructor, where a failure would be an Init error CloudFormation never hears of) and a run that would
 * outlast the function's timeout.
 */
public class DatabaseMigrationHandler extends CustomResourceHandler {

    private static final Logger LOG = LoggerFactory.getLogger(DatabaseMigrationHandler.class);

    private final Supplier<ApplicationContext> contextStarter;
    private ApplicationContext context;

    public DatabaseMigrationHandler() {
        this(ApplicationContext::run, UrlConnectionHttpClient.create());
    }

    DatabaseMigrationHandler(Supplier<ApplicationContext> contextStarter, SdkHttpClient responder) {
        super(responder);
        this.contextStarter = contextStarter;
    }

    @Override
    protected Response create(CloudFormationCustomResourceEvent event, Context lambda) {
        return run(event, lambda, false);
    }

    /** An Update, or CloudFormation's rollback of a failed one, which migrates nothing (SchemaRequest.isRollback). */
    @Override
    protected Response update(CloudFormationCustomResourceEvent event, Context lambda) {
        if (SchemaRequest.isRollback(event.getResourceProperties(), event.getOldResourceProperties())) {
            LOG.info(
                    "Update {} is CloudFormation's rollback (Release {} after {}): no migration, only checking that"
                            + " each role connects",
                    event.getLogicalResourceId(),
                    SchemaRequest.release(event.getResourceProperties()).getAsLong(),
                    SchemaRequest.release(event.getOldResourceProperties()).getAsLong());
            return run(event, lambda, true);
        }
        return run(event, lambda, false);
    }

    /** The data stays: nothing in the database is touched, and no connection is opened. */
    @Override
    protected Response delete(CloudFormationCustomResourceEvent event, Context lambda) {
        return Response.builder()
                .status(Response.Status.SUCCESS)
                .physicalResourceId(physicalResourceId(event))
                .reason("the database, its schema and roles are left as they are")
                .build();
    }

    /** A Create or Update; {@code rollback}: CloudFormation's rollback Update, which only checks the roles. */
    private Response run(CloudFormationCustomResourceEvent event, Context lambda, boolean rollback) {
        String physicalId = physicalResourceId(event);
        SchemaRequest request;
        DatabaseSchemaService service;
        MigrationProperties properties;
        ApplicationContext started;
        try {
            request = SchemaRequest.from(event.getResourceProperties());
        } catch (IllegalArgumentException e) {
            LOG.error("{} {}: {}", event.getRequestType(), event.getLogicalResourceId(), e.getMessage());
            return failed(
                    physicalId, "the " + event.getLogicalResourceId() + " resource's properties: " + e.getMessage());
        }
        try {
            started = context();
            properties = started.getBean(MigrationProperties.class);
            service = started.getBean(DatabaseSchemaService.class);
        } catch (Throwable e) {
            // An Error too (a class missing from the artifact, memory): Powertools answers exceptions only, and
            // without an answer CloudFormation waits for the resource's ServiceTimeout.
            LOG.error("{} {} cannot start", event.getRequestType(), event.getLogicalResourceId(), e);
            String why = e instanceof Error
                    ? e.getClass().getSimpleName() + ": " + Reasons.describe(e)
                    : Reasons.describe(e);
            return failed(physicalId, "the migration function cannot start: " + why);
        }
        Deadline deadline = new Deadline(lambda::getRemainingTimeInMillis, properties.deadlineMargin());
        // Past the deadline the run's connections are aborted and refused from then on, and this context is
        // retired: its worker may go on (even after a freeze) but reaches nothing, and the next request starts anew.
        Runnable abort = () -> {
            service.abort();
            retire(started);
        };
        Callable<String> work = rollback ? () -> service.afterRollback(request) : () -> service.apply(request);
        return switch (DeadlineGuard.run(deadline, work, abort)) {
            case DeadlineGuard.Done<String> done -> {
                LOG.info(
                        "{} {}: schema at version {}",
                        event.getRequestType(),
                        event.getLogicalResourceId(),
                        done.value());
                yield Response.builder()
                        .status(Response.Status.SUCCESS)
                        .physicalResourceId(physicalId)
                        .value(Map.of("SchemaVersion", done.value()))
                        .build();
            }
            case DeadlineGuard.Failed<String> failed -> {
                LOG.error("{} {} failed", event.getRequestType(), event.getLogicalResourceId(), failed.failure());
                yield failed(physicalId, Reasons.describe(failed.failure()));
            }
            case DeadlineGuard.TimedOut<String> timedOut -> {
                String reason = "the migration did not finish before the function's timeout (less than "
                        + properties.deadlineMargin().toSeconds()
                        + " s, pastebin.migration.deadline-margin, were left);"
                        + " its connections were closed, so PostgreSQL rolled back what it had not committed."
                        + " Look for a lock the migration waited on, then deploy again";
                LOG.error("{} {}: {}", event.getRequestType(), event.getLogicalResourceId(), reason);
                yield failed(physicalId, reason);
            }
        };
    }

    private synchronized ApplicationContext context() {
        if (context == null) {
            context = contextStarter.get();
        }
        return context;
    }

    /** The next request starts a new context; this one is closed (what its worker still uses fails). */
    private void retire(ApplicationContext started) {
        synchronized (this) {
            if (started.equals(context)) {
                context = null;
            }
        }
        try {
            started.close();
        } catch (RuntimeException e) {
            LOG.warn("closing the timed-out run's context failed", e);
        }
    }

    private static Response failed(String physicalId, String reason) {
        return Response.builder()
                .status(Response.Status.FAILED)
                .physicalResourceId(physicalId)
                .reason(Reasons.shorten(reason))
                .build();
    }

    /**
     * The id CloudFormation gave back on Create, on every later request (so an Update never replaces the resource,
     * which would send a Delete); on Create, one derived from the stack and the logical id.
     */
    static String physicalResourceId(CloudFormationCustomResourceEvent event) {
        String given = event.getPhysicalResourceId();
        if (given != null && !given.isBlank()) {
            return given;
        }
        String stackId = event.getStackId() == null ? "" : event.getStackId();
        String stack = stackId.contains("/") ? stackId.split("/")[1] : stackId;
        return stack + "-" + event.getLogicalResourceId();
    }
}
