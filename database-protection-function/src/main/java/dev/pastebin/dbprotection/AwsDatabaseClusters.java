package dev.pastebin.dbprotection;

import java.time.Duration;
import software.amazon.awssdk.core.waiters.WaiterOverrideConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.rds.RdsClient;
import software.amazon.awssdk.services.rds.model.DBCluster;
import software.amazon.awssdk.services.rds.model.DbClusterNotFoundException;
import software.amazon.awssdk.services.rds.model.DescribeDbClustersRequest;
import software.amazon.awssdk.services.rds.waiters.RdsWaiter;

/** {@link DatabaseClusters} with the SDK's RDS and CloudFormation clients, in the function's region. */
final class AwsDatabaseClusters implements DatabaseClusters {

    /** Between two looks at a cluster that is not available yet. */
    private static final Duration POLL_INTERVAL = Duration.ofSeconds(5);
    /** Enough looks for any budget: the budget, not a count, ends a wait. */
    private static final int UNBOUNDED_ATTEMPTS = 100_000;

    private final RdsClient rds;
    private final CloudFormationClient cloudFormation;

    AwsDatabaseClusters(RdsClient rds, CloudFormationClient cloudFormation) {
        this.rds = rds;
        this.cloudFormation = cloudFormation;
    }

    static AwsDatabaseClusters open() {
        return new AwsDatabaseClusters(
                RdsClient.builder()
                        .httpClientBuilder(UrlConnectionHttpClient.builder())
                        .build(),
                CloudFormationClient.builder()
                        .httpClientBuilder(UrlConnectionHttpClient.builder())
                        .build());
    }

    @Override
    public boolean setDeletionProtection(String clusterId, boolean protect, Duration budget) {
        try {
            // ModifyDBCluster refuses a cluster that is not available (InvalidDBClusterStateFault)
            String status = rds.describeDBClusters(b -> b.dbClusterIdentifier(clusterId)).dbClusters().stream()
                    .findFirst()
                    .map(DBCluster::status)
                    .orElse("");
            if (!"available".equals(status)) {
                try (RdsWaiter waiter = RdsWaiter.builder().client(rds).build()) {
                    waiter.waitUntilDBClusterAvailable(
                            DescribeDbClustersRequest.builder()
                                    .dbClusterIdentifier(clusterId)
                                    .build(),
                            WaiterOverrideConfiguration.builder()
                                    .waitTimeout(budget)
                                    .maxAttempts(UNBOUNDED_ATTEMPTS)
                                    .backoffStrategyV2(BackoffStrategy.fixedDelayWithoutJitter(POLL_INTERVAL))
                                    .build());
                }
            }
            rds.modifyDBCluster(b ->
                    b.dbClusterIdentifier(clusterId).deletionProtection(protect).applyImmediately(true));
            return true;
        } catch (DbClusterNotFoundException e) {
            return false;
        }
    }

    @Override
    public String stackStatus(String stackId) {
        return cloudFormation
                .describeStacks(b -> b.stackName(stackId))
                .stacks()
                .getFirst()
                .stackStatusAsString();
    }

    @Override
    public void close() {
        rds.close();
        cloudFormation.close();
    }
}
