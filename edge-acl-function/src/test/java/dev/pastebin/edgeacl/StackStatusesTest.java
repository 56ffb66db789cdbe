package dev.pastebin.edgeacl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.edgeacl.StackStatuses.StackState;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.cloudformation.model.StackEvent;

class StackStatusesTest {

    private static final String NAME = "pastebin-edge-waf";
    private static final String ARN = "arn:aws:wafv2:us-east-1:123456789012:global/webacl/pastebin-edge-waf/a1";

    private static Optional<StackState> stack(String status, String reason, String arn) {
        return Optional.of(new StackState(status, Optional.ofNullable(reason), Optional.ofNullable(arn)));
    }

    @ParameterizedTest
    @CsvSource({"CREATE, CREATE_COMPLETE", "UPDATE, UPDATE_COMPLETE"})
    void aCompletedCreateOrUpdateAnswersTheWebAcl(StackOperation operation, String status) {
        StackOutcome outcome = StackStatuses.settle(operation, false, NAME, stack(status, null, ARN));
        assertTrue(outcome.succeeded());
        assertEquals(Optional.of(ARN), outcome.webAclArn());
    }

    @ParameterizedTest
    @CsvSource({"CREATE_COMPLETE", "UPDATE_COMPLETE", "UPDATE_ROLLBACK_COMPLETE"})
    void anUpdateThatChangedNothingSucceedsOnAnyStableState(String status) {
        assertTrue(StackStatuses.settle(StackOperation.UPDATE, true, NAME, stack(status, null, ARN))
                .succeeded());
    }

    @Test
    void aRolledBackUpdateFailsWithItsReason() {
        StackOutcome outcome = StackStatuses.settle(
                StackOperation.UPDATE,
                false,
                NAME,
                stack("UPDATE_ROLLBACK_COMPLETE", "WebAcl: WAFLimitsExceededException", ARN));
        assertFalse(outcome.succeeded());
        assertEquals(
                "stack pastebin-edge-waf is UPDATE_ROLLBACK_COMPLETE: WebAcl: WAFLimitsExceededException",
                outcome.reason());
    }

    @Test
    void aFailedCreateFailsWithTheStacksReason() {
        StackOutcome outcome = StackStatuses.settle(
                StackOperation.CREATE, false, NAME, stack("ROLLBACK_COMPLETE", "Ipv6Addresses: AccessDenied", null));
        assertFalse(outcome.succeeded());
        assertEquals("stack pastebin-edge-waf is ROLLBACK_COMPLETE: Ipv6Addresses: AccessDenied", outcome.reason());
    }

    @Test
    void aStackStillInProgressAtTheDeadlineFails() {
        StackOutcome outcome =
                StackStatuses.settle(StackOperation.CREATE, false, NAME, stack("CREATE_IN_PROGRESS", null, null));
        assertFalse(outcome.succeeded());
        assertTrue(outcome.reason().contains("still CREATE_IN_PROGRESS at the function's deadline"), outcome.reason());
    }

    @Test
    void aCreatedStackWithoutTheOutputFails() {
        assertFalse(StackStatuses.settle(StackOperation.CREATE, false, NAME, stack("CREATE_COMPLETE", null, null))
                .succeeded());
    }

    @Test
    void aDeleteSucceedsWhenTheStackIsGoneOrDeleted() {
        assertTrue(StackStatuses.settle(StackOperation.DELETE, false, NAME, Optional.empty())
                .succeeded());
        assertTrue(StackStatuses.settle(StackOperation.DELETE, false, NAME, stack("DELETE_COMPLETE", null, null))
                .succeeded());
        StackOutcome stuck = StackStatuses.settle(
                StackOperation.DELETE, false, NAME, stack("DELETE_FAILED", "WebAcl: WAFAssociatedItemException", ARN));
        assertFalse(stuck.succeeded());
        assertEquals("stack pastebin-edge-waf is DELETE_FAILED: WebAcl: WAFAssociatedItemException", stuck.reason());
    }

    @Test
    void aCreateOrUpdateOfAMissingStackFails() {
        assertFalse(StackStatuses.settle(StackOperation.UPDATE, false, NAME, Optional.empty())
                .succeeded());
    }

    @Test
    void theReasonIsTheFirstResourceFailureOfTheLatestOperation() {
        // newest first, as DescribeStackEvents lists them; the older create's failure is not this update's
        List<StackEvent> events = List.of(
                event(NAME, "UPDATE_ROLLBACK_COMPLETE", null),
                event("WebAcl", "UPDATE_FAILED", "Resource update cancelled"),
                event("Ipv6Addresses", "UPDATE_FAILED", "WAFInvalidParameterException: bad prefix"),
                event(NAME, "UPDATE_IN_PROGRESS", "User Initiated"),
                event("WebAcl", "CREATE_FAILED", "an older failure"),
                event(NAME, "CREATE_IN_PROGRESS", "User Initiated"));
        assertEquals(
                Optional.of("Ipv6Addresses: WAFInvalidParameterException: bad prefix"),
                EdgeAclStacks.firstFailure(events, NAME, StackOperation.UPDATE));
        assertEquals(Optional.empty(), EdgeAclStacks.firstFailure(events.subList(3, 4), NAME, StackOperation.UPDATE));
    }

    private static StackEvent event(String logicalId, String status, String reason) {
        return StackEvent.builder()
                .logicalResourceId(logicalId)
                .resourceStatus(status)
                .resourceStatusReason(reason)
                .build();
    }
}
