package dev.pastebin.edgeacl;

import java.util.Optional;

/** How an operation on the us-east-1 stack ended: the web ACL's ARN, or why it failed. */
record StackOutcome(boolean succeeded, Optional<String> webAclArn, String reason) {

    static StackOutcome succeeded(Optional<String> webAclArn) {
        return new StackOutcome(true, webAclArn, "");
    }

    static StackOutcome failed(String reason) {
        return new StackOutcome(false, Optional.empty(), Reasons.shorten(reason));
    }
}
