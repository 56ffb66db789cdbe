package dev.pastebin.moderation.outbox;

import io.micronaut.context.annotation.Value;
import jakarta.inject.Singleton;

/**
 * Where the moderation outbox function calls, each from the environment variable the template sets.
 *
 * @param distributionId     the stack's CloudFront distribution ({@code PASTEBIN_EDGE_DISTRIBUTION_ID}); empty when
 *                           the edge is off, and an invalidation is then acknowledged and logged
 * @param abuseTopicArn      the SNS topic notifications go to ({@code PASTEBIN_ABUSE_TOPIC_ARN})
 * @param cloudfrontEndpoint CloudFront's API ({@code PASTEBIN_CLOUDFRONT_ENDPOINT}); a local stand-in in tests
 * @param snsEndpoint        SNS's API ({@code PASTEBIN_SNS_ENDPOINT}); empty: {@code AWS_ENDPOINT_URL} when set
 *                           (LocalStack), else the region's
 */
@Singleton
public record OutboxProperties(
        @Value("${pastebin.edge.distribution-id:}") String distributionId,
        @Value("${pastebin.abuse-topic-arn:}") String abuseTopicArn,

        @Value("${pastebin.cloudfront.endpoint:`https://cloudfront.amazonaws.com`}")
        String cloudfrontEndpoint,

        @Value("${pastebin.sns.endpoint:}") String snsEndpoint) {}
