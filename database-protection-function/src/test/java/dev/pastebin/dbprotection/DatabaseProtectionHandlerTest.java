package dev.pastebin.dbprotection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.amazonaws.services.lambda.runtime.events.CloudFormationCustomResourceEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.pastebin.customresource.support.LambdaContext;
import dev.pastebin.customresource.support.ResponseUrl;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What the handler does with the cluster's deletion protection for each request, and that it answers every one
 * (the ResponseURL stands in for CloudFormation's), with RDS and CloudFormation replaced by a recording fake.
 */
class DatabaseProtectionHandlerTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String STACK_ID =
            "arn:aws:cloudformation:eu-west-1:123456789012:stack/pastebin/5b3c1a40-1f2e-11ef-9a7b-0a1b2c3d4e5f";
    private static final String CLUSTER = "pastebin-databasecluster-a1b2c3d4e5f6";

    /** A cluster's protection as RDS would keep it, and the calls made; the stack in {@code stackStatus}. */
    private static final class Clusters implements DatabaseClusters {

        final List<String> calls = new ArrayList<>();
        final String stackStatus;
        Boolean protection;
        boolean exists = true;
        RuntimeException failure;

        Clusters(String stackStatus, Boolean protection) {
            this.stackStatus = stackStatus;
            this.protection = protection;
        }

        @Override
        public boolean setDeletionProtection(String clusterId, boolean protect, Duration budget) {
            calls.add("protect " + clusterId + " " + protect);
            assertTrue(budget.compareTo(Duration.ofMinutes(1)) > 0, "the wait's budget: " + budget);
            if (failure != null) {
                throw failure;
            }
            if (exists) {
                protection = protect;
            }
            return exists;
        }

        @Override
        public String stackStatus(String stackId) {
            calls.add("status " + stackId);
            return stackStatus;
        }

        @Override
        public void close() {
            calls.add("closed");
        }
    }

    private static CloudFormationCustomResourceEvent event(String type, String protection, ResponseUrl responseUrl) {
        var event = new CloudFormationCustomResourceEvent();
        event.setRequestType(type);
        event.setResponseUrl(responseUrl.uri("/answer?X-Amz-Signature=abc").toString());
        event.setStackId(STACK_ID);
        event.setRequestId("5d478078-13e9-baf0-464a-7ef285ecc786");
        event.setLogicalResourceId("DatabaseProtection");
        event.setResourceType("Custom::DatabaseProtection");
        if (!type.equals("Create")) {
            event.setPhysicalResourceId(CLUSTER);
        }
        event.setResourceProperties(Map.of(
                "ServiceToken", "arn:aws:lambda:eu-west-1:123456789012:function:protection",
                "DBClusterIdentifier", CLUSTER,
                "DeletionProtection", protection));
        return event;
    }

    private static JsonNode handle(DatabaseProtectionHandler handler, String type, String protection) throws Exception {
        try (ResponseUrl responseUrl = new ResponseUrl()) {
            handler.handleRequest(event(type, protection, responseUrl), new LambdaContext(300_000));
            return JSON.readTree(responseUrl.next().body());
        }
    }

    /** The cluster is created unprotected; the first deploy turns protection on once the cluster exists. */
    @Test
    void createTurnsTheProtectionOnAsTheStackSays() throws Exception {
        Clusters clusters = new Clusters("CREATE_IN_PROGRESS", false);

        JsonNode answer = handle(new DatabaseProtectionHandler(() -> clusters), "Create", "true");

        assertEquals("SUCCESS", answer.path("Status").asText(), answer.toString());
        assertEquals(CLUSTER, answer.path("PhysicalResourceId").asText());
        assertEquals(true, clusters.protection);
        assertEquals(List.of("protect " + CLUSTER + " true", "closed"), clusters.calls);
    }

    /** DatabaseDeletionProtection=false and a deploy turn it off (before `sam delete`), true and a deploy on again. */
    @Test
    void updateSetsTheProtectionAsTheStackSays() throws Exception {
        Clusters clusters = new Clusters("UPDATE_IN_PROGRESS", true);
        var handler = new DatabaseProtectionHandler(() -> clusters);

        assertEquals(
                "SUCCESS", handle(handler, "Update", "false").path("Status").asText());
        assertEquals(false, clusters.protection);
        assertEquals("SUCCESS", handle(handler, "Update", "true").path("Status").asText());
        assertEquals(true, clusters.protection);
    }

    /**
     * A failed first deploy is rolled back: this resource is deleted before the instance and the cluster, so turning
     * the protection off here lets the rollback delete the cluster, and the stack ends ROLLBACK_COMPLETE.
     */
    @Test
    void theRollbackOfTheStacksCreationTurnsTheProtectionOffBeforeTheClusterIsDeleted() throws Exception {
        Clusters clusters = new Clusters(DatabaseProtectionHandler.CREATION_ROLLING_BACK, true);

        JsonNode answer = handle(new DatabaseProtectionHandler(() -> clusters), "Delete", "true");

        assertEquals("SUCCESS", answer.path("Status").asText(), answer.toString());
        assertEquals(CLUSTER, answer.path("PhysicalResourceId").asText(), "a Delete keeps CloudFormation's id");
        assertEquals(false, clusters.protection);
        assertEquals(List.of("status " + STACK_ID, "protect " + CLUSTER + " false", "closed"), clusters.calls);
    }

    /** A cluster already gone (deleted by hand) leaves nothing to release: the rollback goes on. */
    @Test
    void aRollbackWithoutTheClusterSucceeds() throws Exception {
        Clusters clusters = new Clusters(DatabaseProtectionHandler.CREATION_ROLLING_BACK, null);
        clusters.exists = false;

        JsonNode answer = handle(new DatabaseProtectionHandler(() -> clusters), "Delete", "true");

        assertEquals("SUCCESS", answer.path("Status").asText(), answer.toString());
    }

    /**
     * Deleting the stack must meet the protection (operating.md, "Removing the stack": deploy with
     * DatabaseDeletionProtection=false first), and a cluster an update replaced keeps it, and so its data.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "DELETE_IN_PROGRESS",
                "UPDATE_COMPLETE_CLEANUP_IN_PROGRESS",
                "UPDATE_ROLLBACK_COMPLETE_CLEANUP_IN_PROGRESS",
                "UPDATE_ROLLBACK_IN_PROGRESS"
            })
    void anyOtherDeleteLeavesTheProtectionAsItIs(String stackStatus) throws Exception {
        Clusters clusters = new Clusters(stackStatus, true);

        JsonNode answer = handle(new DatabaseProtectionHandler(() -> clusters), "Delete", "true");

        assertEquals("SUCCESS", answer.path("Status").asText(), answer.toString());
        assertEquals(true, clusters.protection);
        assertEquals(List.of("status " + STACK_ID, "closed"), clusters.calls);
    }

    @Test
    void whatRdsRefusesIsAnsweredFailedWithItsReason() throws Exception {
        Clusters clusters = new Clusters("CREATE_IN_PROGRESS", false);
        clusters.failure = new IllegalStateException("InvalidDBClusterStateFault: the cluster is not available");

        JsonNode answer = handle(new DatabaseProtectionHandler(() -> clusters), "Create", "true");

        assertEquals("FAILED", answer.path("Status").asText(), answer.toString());
        assertEquals(
                "IllegalStateException: InvalidDBClusterStateFault: the cluster is not available",
                answer.path("Reason").asText());
        assertEquals(CLUSTER, answer.path("PhysicalResourceId").asText());
        assertTrue(clusters.calls.contains("closed"), clusters.calls.toString());
    }

    @Test
    void aCreateWithoutItsClusterFails() throws Exception {
        Clusters clusters = new Clusters("CREATE_IN_PROGRESS", null);
        clusters.exists = false;

        JsonNode answer = handle(new DatabaseProtectionHandler(() -> clusters), "Create", "true");

        assertEquals("FAILED", answer.path("Status").asText(), answer.toString());
        assertTrue(answer.path("Reason").asText().contains("no cluster " + CLUSTER), answer.toString());
    }

    /** An invalid request changes nothing, and an Error while starting (a class missing) is answered too. */
    @Test
    void anInvalidRequestOrAFailedStartIsAnsweredFailed() throws Exception {
        var untouched = new DatabaseProtectionHandler(() -> {
            throw new AssertionError("an invalid request starts nothing");
        });
        JsonNode invalid = handle(untouched, "Create", "yes");
        assertEquals("FAILED", invalid.path("Status").asText(), invalid.toString());
        assertTrue(invalid.path("Reason").asText().contains("DeletionProtection"), invalid.toString());

        var broken = new DatabaseProtectionHandler(() -> {
            throw new NoClassDefFoundError("software/amazon/awssdk/services/rds/RdsClient");
        });
        JsonNode failed = handle(broken, "Update", "true");
        assertEquals("FAILED", failed.path("Status").asText(), failed.toString());
        assertTrue(failed.path("Reason").asText().startsWith("NoClassDefFoundError"), failed.toString());
    }

    @Test
    void aReasonIsOneLineOfAtMostTheLimit() {
        assertEquals("IllegalStateException: a b", DatabaseProtectionHandler.reason(new IllegalStateException("a\nb")));
        String longReason = DatabaseProtectionHandler.reason(new IllegalStateException("x".repeat(5000)));
        assertEquals(DatabaseProtectionHandler.MAX_REASON, longReason.length());
        assertTrue(longReason.endsWith("..."), longReason);
    }
}
