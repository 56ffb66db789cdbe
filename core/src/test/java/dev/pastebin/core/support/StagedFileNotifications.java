package dev.pastebin.core.support;

import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Event;
import software.amazon.awssdk.services.s3.model.FilterRule;
import software.amazon.awssdk.services.s3.model.FilterRuleName;
import software.amazon.awssdk.services.s3.model.NotificationConfiguration;
import software.amazon.awssdk.services.s3.model.NotificationConfigurationFilter;
import software.amazon.awssdk.services.s3.model.QueueConfiguration;
import software.amazon.awssdk.services.s3.model.S3KeyFilter;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

/**
 * A test's bucket notifies a test's upload queue of every object created under staging/, as the template configures
 * the deployed bucket and infra/local/bootstrap.py the local one: a large paste's uploads reach the upload function
 * (and S3 sends its s3:TestEvent to the queue when this is set).
 */
public final class StagedFileNotifications {

    private StagedFileNotifications() {}

    /** Replaces the bucket's notification configuration with this one rule. */
    public static void toQueue(S3Client s3, SqsClient sqs, String bucket, String queueUrl) {
        String queueArn = sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes()
                .get(QueueAttributeName.QUEUE_ARN);
        QueueConfiguration staged = QueueConfiguration.builder()
                .queueArn(queueArn)
                .events(Event.S3_OBJECT_CREATED)
                .filter(NotificationConfigurationFilter.builder()
                        .key(S3KeyFilter.builder()
                                .filterRules(FilterRule.builder()
                                        .name(FilterRuleName.PREFIX)
                                        .value("staging/")
                                        .build())
                                .build())
                        .build())
                .build();
        s3.putBucketNotificationConfiguration(b -> b.bucket(bucket)
                .notificationConfiguration(NotificationConfiguration.builder()
                        .queueConfigurations(staged)
                        .build()));
    }
}
