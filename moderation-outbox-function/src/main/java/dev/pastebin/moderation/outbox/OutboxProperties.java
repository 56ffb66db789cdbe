package dev.pastebin.moderation.outbox;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.NotBlank;

/**
 * Where the moderation outbox function calls, bound from {@code pastebin.outbox.*} ({@code PASTEBIN_OUTBOX_*}, which
 * the template sets).
 *
 * @param distributionId     the stack's CloudFront distribution; empty when the edge is off, and an invalidation is
 *                           then acknowledged and logged
 * @param abuseTopicArn      the SNS topic notifications go to; empty: a notification is logged and dropped
 * @param cloudfrontEndpoint CloudFront's API; a local stand-in in tests
 * @param snsEndpoint        SNS's API; empty: {@code AWS_ENDPOINT_URL} when set (LocalStack), else the region's
 */
@ConfigurationProperties("pastebin.outbox")
public record OutboxProperties(
        @Bindable(defaultValue = "") String distributionId,
        @Bindable(defaultValue = "") String abuseTopicArn,

        @NotBlank @Bindable(defaultValue = "https://cloudfront.amazonaws.com")
        String cloudfrontEndpoint,

        @Bindable(defaultValue = "") String snsEndpoint) {}
