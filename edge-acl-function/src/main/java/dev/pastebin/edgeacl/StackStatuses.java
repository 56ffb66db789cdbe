package dev.pastebin.edgeacl;

import java.util.Optional;
import java.util.Set;

/** What the stack's state after the wait means for the operation (pure: the stack as DescribeStacks saw it). */
final class StackStatuses {

    /** The stack as it is: its status, its reason (a failed resource's when the stack names none), its output. */
    record StackState(String status, Optional<String> reason, Optional<String> webAclArn) {}

    /**
     * Where an update that changed nothing (UpdateStack: "No updates are to be performed") may find the stack: the
     * stack already has this template and these parameters, so its last stable state is the one asked for.
     */
    private static final Set<String> UNCHANGED_STABLE =
            Set.of("CREATE_COMPLETE", "UPDATE_COMPLETE", "UPDATE_ROLLBACK_COMPLETE");

    private StackStatuses() {}

    /**
     * @param unchanged the update found nothing to change (nothing was waited for)
     * @param state     empty when the stack does not exist
     */
    static StackOutcome settle(
            StackOperation operation, boolean unchanged, String stackName, Optional<StackState> state) {
        if (operation == StackOperation.DELETE) {
            if (state.isEmpty() || state.get().status().equals(StackOperation.DELETE.completeStatus())) {
                return StackOutcome.succeeded(Optional.empty());
            }
        } else if (state.isEmpty()) {
            return StackOutcome.failed("stack " + stackName + " does not exist after its " + operation);
        } else if (state.get().status().equals(operation.completeStatus())
                || (unchanged && UNCHANGED_STABLE.contains(state.get().status()))) {
            return state.get().webAclArn().isPresent()
                    ? StackOutcome.succeeded(state.get().webAclArn())
                    : StackOutcome.failed("stack " + stackName + " has no WebAclArn output");
        }
        StackState s = state.orElseThrow();
        if (s.status().endsWith("_IN_PROGRESS")) {
            return StackOutcome.failed("stack " + stackName + " is still " + s.status()
                    + " at the function's deadline; see its events in us-east-1");
        }
        return StackOutcome.failed("stack " + stackName + " is " + s.status()
                + s.reason().map(r -> ": " + r).orElse(""));
    }
}
