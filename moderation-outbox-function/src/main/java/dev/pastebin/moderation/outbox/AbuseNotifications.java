package dev.pastebin.moderation.outbox;

import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.net.URI;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.SnsClientBuilder;

/** SNS Publish of a notification to the abuse topic. */
@Singleton
class AbuseNotifications {

    /** SNS allows subjects of up to 100 characters. */
    static final int MAX_SUBJECT = 100;

    private final OutboxProperties properties;
    private final SnsClient sns;

    AbuseNotifications(OutboxProperties properties) {
        this.properties = properties;
        SnsClientBuilder builder = SnsClient.builder().httpClient(UrlConnectionHttpClient.create());
        if (topicSet()) {
            // the topic's ARN says its region: arn:aws:sns:<region>:<account>:<name>
            builder.region(Region.of(properties.abuseTopicArn().split(":")[3]));
        }
        // empty: the SDK's own resolution (AWS_ENDPOINT_URL when set, as locally; else the region's endpoint)
        if (!properties.snsEndpoint().isBlank()) {
            builder.endpointOverride(URI.create(properties.snsEndpoint()));
        }
        this.sns = builder.build();
    }

    boolean topicSet() {
        return !properties.abuseTopicArn().isBlank();
    }

    void publish(String subject, String message) {
        sns.publish(publish -> publish.topicArn(properties.abuseTopicArn())
                .subject(subject.length() > MAX_SUBJECT ? subject.substring(0, MAX_SUBJECT) : subject)
                .message(message));
    }

    @PreDestroy
    void close() {
        sns.close();
    }
}
