package dev.pastebin.api.http;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;

/**
 * The CloudFront edge in front of the HTTP API (docs/design.md, "Edge"). Bound from {@code pastebin.edge.*}.
 *
 * @param originSecret         the value CloudFront sends in {@code X-Origin-Verify}; unset or blank (locally, or
 *                             with the edge off) the API answers requests from anywhere
 * @param previousOriginSecret during a rotation, the value before it, accepted as well until CloudFront sends the
 *                             new one everywhere; unset or blank outside a rotation
 */
@ConfigurationProperties("pastebin.edge")
public record EdgeProperties(
        @Nullable String originSecret, @Nullable String previousOriginSecret) {}
