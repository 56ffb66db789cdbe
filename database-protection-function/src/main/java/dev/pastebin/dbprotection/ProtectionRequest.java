package dev.pastebin.dbprotection;

import com.amazonaws.services.lambda.runtime.events.CloudFormationCustomResourceEvent;
import java.util.Map;

/**
 * A custom-resource event's properties.
 *
 * @param clusterId the cluster ({@code DBClusterIdentifier}: the template's {@code !Ref DatabaseCluster})
 * @param protect   the deletion protection it should have ({@code DeletionProtection}: "true" or "false", the
 *                  template's DatabaseDeletionProtection)
 * @param stackId   the stack the resource is in (the event's StackId)
 */
record ProtectionRequest(String clusterId, boolean protect, String stackId) {

    static final String CLUSTER_PROPERTY = "DBClusterIdentifier";
    static final String PROTECTION_PROPERTY = "DeletionProtection";

    static ProtectionRequest from(CloudFormationCustomResourceEvent event) {
        Map<String, Object> properties =
                event.getResourceProperties() == null ? Map.of() : event.getResourceProperties();
        String cluster = text(properties, CLUSTER_PROPERTY);
        boolean protect = switch (text(properties, PROTECTION_PROPERTY)) {
            case "true" -> true;
            case "false" -> false;
            default ->
                throw new IllegalArgumentException(PROTECTION_PROPERTY + " is neither \"true\" nor \"false\": "
                        + properties.get(PROTECTION_PROPERTY));
        };
        String stackId = event.getStackId();
        if (stackId == null || stackId.isBlank()) {
            throw new IllegalArgumentException("the event names no StackId");
        }
        return new ProtectionRequest(cluster, protect, stackId);
    }

    private static String text(Map<String, Object> properties, String name) {
        Object value = properties.get(name);
        if (value == null || String.valueOf(value).isBlank()) {
            throw new IllegalArgumentException("the resource has no " + name);
        }
        return String.valueOf(value).strip();
    }
}
