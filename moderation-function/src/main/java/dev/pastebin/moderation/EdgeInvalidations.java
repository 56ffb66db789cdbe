package dev.pastebin.moderation;

import jakarta.inject.Singleton;
import java.net.URI;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * CloudFront CreateInvalidation of a paste's edge paths on the stack's distribution. The caller reference is the
 * outbox message's reference, so a redelivered message makes CloudFront answer the same invalidation instead of
 * starting a second one.
 */
@Singleton
class EdgeInvalidations {

    /** CloudFront is a global service, signed for us-east-1. */
    static final String SIGNING_REGION = "us-east-1";

    private static final Pattern ID = Pattern.compile("<Id>([^<]+)</Id>");

    private final AwsSignedCalls calls;
    private final ModerationProperties properties;

    EdgeInvalidations(AwsSignedCalls calls, ModerationProperties properties) {
        this.calls = calls;
        this.properties = properties;
    }

    boolean edgeOn() {
        return !properties.distributionId().isBlank();
    }

    /** @return CloudFront's id of the invalidation */
    String invalidate(List<String> paths, String callerReference) {
        URI uri = URI.create(properties.cloudfrontEndpoint().replaceAll("/+$", "") + "/2020-05-31/distribution/"
                + properties.distributionId() + "/invalidation");
        AwsSignedCalls.Answer answer =
                calls.post(uri, "application/xml", batch(paths, callerReference), "cloudfront", SIGNING_REGION);
        if (!answer.ok()) {
            throw new IllegalStateException("CloudFront answered " + answer.status() + ": " + answer.body());
        }
        Matcher id = ID.matcher(answer.body());
        return id.find() ? id.group(1) : "?";
    }

    /** The InvalidationBatch document of the 2020-05-31 API. */
    static String batch(List<String> paths, String callerReference) {
        StringBuilder xml = new StringBuilder(
                        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
                                + "<InvalidationBatch xmlns=\"http://cloudfront.amazonaws.com/doc/2020-05-31/\"><Paths><Quantity>")
                .append(paths.size())
                .append("</Quantity><Items>");
        for (String path : paths) {
            xml.append("<Path>").append(escape(path)).append("</Path>");
        }
        return xml.append("</Items></Paths><CallerReference>")
                .append(escape(callerReference))
                .append("</CallerReference></InvalidationBatch>")
                .toString();
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
