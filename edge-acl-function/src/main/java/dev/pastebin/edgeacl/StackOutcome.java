package dev.pastebin.edgeacl;

import java.util.Optional;

/**
 * How an operation on the us-east-1 stack ended: the web ACL's ARN, or why it failed, or why a stack was left alone.
 *
 * @param createdStack the stack a Create made (or found made by an earlier attempt of the same stack): the
 *                     resource's PhysicalResourceId. Empty when the Create made none, or for an Update or Delete.
 */
record StackOutcome(boolean succeeded, Optional<String> webAclArn, String reason, Optional<String> createdStack) {

    static StackOutcome succeeded(Optional<String> webAclArn) {
        return new StackOutcome(true, webAclArn, "", Optional.empty());
    }

    static StackOutcome failed(String reason) {
        return new StackOutcome(false, Optional.empty(), Reasons.shorten(reason), Optional.empty());
    }

    /** A Delete that deletes nothing, and says why. */
    static StackOutcome leftAlone(String reason) {
        return new StackOutcome(true, Optional.empty(), Reasons.shorten(reason), Optional.empty());
    }

    /** This outcome, of a Create whose stack is this one's. */
    StackOutcome createdAs(String stack) {
        return new StackOutcome(succeeded, webAclArn, reason, Optional.of(stack));
    }
}
