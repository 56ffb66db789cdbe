package dev.pastebin.edgeacl;

import java.util.Locale;

/** What a custom-resource request asks of the us-east-1 stack of edge-waf.yaml. */
enum StackOperation {
    CREATE,
    UPDATE,
    DELETE;

    /** The operation for CloudFormation's RequestType ({@code Create}, {@code Update}, {@code Delete}). */
    static StackOperation of(String requestType) {
        if (requestType == null) {
            throw new IllegalArgumentException("the event has no RequestType");
        }
        return switch (requestType) {
            case "Create" -> CREATE;
            case "Update" -> UPDATE;
            case "Delete" -> DELETE;
            default -> throw new IllegalArgumentException("unknown RequestType " + requestType);
        };
    }

    /** The stack status that ends this operation well. */
    String completeStatus() {
        return name() + "_COMPLETE";
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
