package dev.pastebin.moderation;

import jakarta.inject.Singleton;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** SNS Publish of a notification to the abuse topic (the query API, form-encoded). */
@Singleton
class AbuseNotifications {

    /** SNS allows subjects of up to 100 characters. */
    static final int MAX_SUBJECT = 100;

    private final AwsSignedCalls calls;
    private final ModerationProperties properties;

    AbuseNotifications(AwsSignedCalls calls, ModerationProperties properties) {
        this.calls = calls;
        this.properties = properties;
    }

    boolean topicSet() {
        return !properties.abuseTopicArn().isBlank();
    }

    void publish(String subject, String message) {
        // the topic's ARN says its region: arn:aws:sns:<region>:<account>:<name>
        String region = properties.abuseTopicArn().split(":")[3];
        Map<String, String> form = new LinkedHashMap<>();
        form.put("Action", "Publish");
        form.put("Version", "2010-03-31");
        form.put("TopicArn", properties.abuseTopicArn());
        form.put("Subject", subject.length() > MAX_SUBJECT ? subject.substring(0, MAX_SUBJECT) : subject);
        form.put("Message", message);
        String body = form.entrySet().stream()
                .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
                .collect(Collectors.joining("&"));
        AwsSignedCalls.Answer answer =
                calls.post(endpoint(region), "application/x-www-form-urlencoded; charset=utf-8", body, "sns", region);
        if (!answer.ok()) {
            throw new IllegalStateException("SNS answered " + answer.status() + ": " + answer.body());
        }
    }

    private URI endpoint(String region) {
        String configured = properties.snsEndpoint().isBlank()
                ? Optional.ofNullable(System.getenv("AWS_ENDPOINT_URL")).orElse("")
                : properties.snsEndpoint();
        return URI.create(configured.isBlank() ? "https://sns." + region + ".amazonaws.com/" : configured + "/");
    }
}
