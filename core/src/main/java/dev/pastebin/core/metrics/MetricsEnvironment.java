package dev.pastebin.core.metrics;

import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import software.amazon.cloudwatchlogs.emf.environment.Environment;
import software.amazon.cloudwatchlogs.emf.environment.LambdaEnvironment;

/**
 * Where EMF lines go: always stdout, as on Lambda. Named explicitly so the library never probes for its
 * environment (outside Lambda it would try the CloudWatch agent and the EC2 metadata endpoint); locally
 * and in tests the lines land on the console like any log line.
 */
@Factory
class MetricsEnvironment {

    @Singleton
    Environment environment() {
        return new LambdaEnvironment();
    }
}
