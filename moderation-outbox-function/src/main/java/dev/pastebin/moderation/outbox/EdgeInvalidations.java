package dev.pastebin.moderation.outbox;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.net.URI;
import java.util.List;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudfront.CloudFrontClient;

/**
 * CloudFront CreateInvalidation of a paste's edge paths on the stack's distribution. The caller reference is the
 * outbox message's reference, so a redelivered message makes CloudFront answer the same invalidation instead of
 * starting a second one.
 */
@Singleton
class EdgeInvalidations {

    private final OutboxProperties properties;
    private final CloudFrontClient cloudfront;

    EdgeInvalidations(OutboxProperties properties) {
        this.properties = properties;
        // CloudFront is a global service signed for us-east-1 (aws-global would sign for "aws-global" once the
        // endpoint is overridden); the endpoint is a setting so tests use a stand-in.
        this.cloudfront = CloudFrontClient.builder()
                .region(Region.US_EAST_1)
                .endpointOverride(URI.create(properties.cloudfrontEndpoint()))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    boolean edgeOn() {
        return !properties.distributionId().isBlank();
    }

    /** @return CloudFront's id of the invalidation */
    String invalidate(List<String> paths, String callerReference) {
        return cloudfront
                .createInvalidation(request -> request.distributionId(properties.distributionId())
                        .invalidationBatch(batch -> batch.callerReference(callerReference)
                                .paths(p -> p.quantity(paths.size()).items(paths))))
                .invalidation()
                .id();
    }

    @PreDestroy
    void close() {
        cloudfront.close();
    }
}
