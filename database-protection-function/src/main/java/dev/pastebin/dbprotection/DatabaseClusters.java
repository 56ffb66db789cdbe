package dev.pastebin.dbprotection;

import java.time.Duration;

/** What the handler asks of AWS: RDS for the cluster's deletion protection, CloudFormation for the stack's status. */
interface DatabaseClusters extends AutoCloseable {

    /**
     * Sets the cluster's deletion protection, once the cluster is available (waiting at most {@code budget}).
     *
     * @return false when no cluster has that identifier (nothing to protect, or to release)
     */
    boolean setDeletionProtection(String clusterId, boolean protect, Duration budget);

    /** The status of the stack {@code stackId} (its ARN), e.g. {@code ROLLBACK_IN_PROGRESS}. */
    String stackStatus(String stackId);

    @Override
    void close();
}
