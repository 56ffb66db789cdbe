package dev.pastebin.testkit;

import java.net.URI;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.regions.Region;

/** Clients of LocalStack itself (not through a proxy). */
public final class LocalStack {

    private LocalStack() {}

    /**
     * The builder aimed at LocalStack's {@code endpoint}, with the environment's region and credentials
     * ({@code AWS_REGION}, {@code AWS_ACCESS_KEY_ID}, {@code AWS_SECRET_ACCESS_KEY}) or LocalStack's defaults
     * (us-east-1, test/test).
     */
    public static <B extends AwsClientBuilder<B, ?>> B configure(B builder, String endpoint) {
        Map<String, String> env = System.getenv();
        return builder.endpointOverride(URI.create(endpoint))
                .region(Region.of(env.getOrDefault("AWS_REGION", "us-east-1")))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(
                        env.getOrDefault("AWS_ACCESS_KEY_ID", "test"),
                        env.getOrDefault("AWS_SECRET_ACCESS_KEY", "test"))));
    }
}
