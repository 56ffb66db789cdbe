package dev.pastebin.local.cli;

import dev.pastebin.local.template.CloudFormationTemplate;
import dev.pastebin.local.template.ResourceAttributes;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The template's resources as they exist on this machine: a queue's {@code Ref} is its URL as the local SQS
 * endpoint reports it, a bucket's is its name, a topic's its ARN, a secret's its name (on AWS its ARN: Secrets Manager
 * takes either as a SecretId), a function's its logical id; ARNs are built for the local region and account. A
 * resource is named by {@code --physical-name}, else by its QueueName/BucketName/TopicName/Name, else by its logical
 * id. The runtime creates nothing: the queues and secrets must exist.
 */
final class LocalResources implements ResourceAttributes {

    private final CloudFormationTemplate template;
    private final Map<String, String> physicalNames;
    private final SqsClient sqs;
    private final String region;
    private final String accountId;
    private final Map<String, String> queueUrls = new ConcurrentHashMap<>();

    LocalResources(
            CloudFormationTemplate template,
            Map<String, String> physicalNames,
            SqsClient sqs,
            String region,
            String accountId) {
        this.template = template;
        this.physicalNames = physicalNames;
        this.sqs = sqs;
        this.region = region;
        this.accountId = accountId;
    }

    @Override
    public Optional<String> ref(String logicalId) {
        return switch (logicalId) {
            case "AWS::Region" -> Optional.of(region);
            case "AWS::AccountId" -> Optional.of(accountId);
            case "AWS::Partition" -> Optional.of("aws");
            case "AWS::URLSuffix" -> Optional.of("amazonaws.com");
            default ->
                switch (typeOf(logicalId)) {
                    case "AWS::SQS::Queue" -> Optional.of(queueUrl(physicalName(logicalId, "QueueName")));
                    case "AWS::S3::Bucket" -> Optional.of(physicalName(logicalId, "BucketName"));
                    case "AWS::SNS::Topic" -> Optional.of(topicArn(physicalName(logicalId, "TopicName")));
                    case "AWS::SecretsManager::Secret" -> Optional.of(physicalName(logicalId, "Name"));
                    case "AWS::Serverless::Function" -> Optional.of(logicalId);
                    default -> Optional.empty();
                };
        };
    }

    @Override
    public Optional<String> getAtt(String logicalId, String attribute) {
        return switch (typeOf(logicalId) + "." + attribute) {
            case "AWS::SQS::Queue.Arn" -> Optional.of(queueArn(physicalName(logicalId, "QueueName")));
            case "AWS::SQS::Queue.QueueName" -> Optional.of(physicalName(logicalId, "QueueName"));
            case "AWS::SQS::Queue.QueueUrl" -> ref(logicalId);
            case "AWS::S3::Bucket.Arn" -> Optional.of("arn:aws:s3:::" + physicalName(logicalId, "BucketName"));
            case "AWS::SNS::Topic.TopicArn" -> ref(logicalId);
            case "AWS::SNS::Topic.TopicName" -> Optional.of(physicalName(logicalId, "TopicName"));
            case "AWS::Serverless::Function.Arn" ->
                Optional.of("arn:aws:lambda:" + region + ":" + accountId + ":function:" + logicalId);
            default -> Optional.empty();
        };
    }

    /** The URL of the queue an SQS ARN names (the event source's Queue property, resolved). */
    String queueUrlOfArn(String arn) {
        String[] parts = arn.split(":");
        if (parts.length != 6 || !parts[2].equals("sqs")) {
            throw new IllegalArgumentException("not an SQS queue ARN: " + arn);
        }
        return queueUrl(parts[5]);
    }

    /** A topic's ARN is its name's (Ref of an AWS::SNS::Topic); infra/local/bootstrap.py creates the topic. */
    private String topicArn(String name) {
        return "arn:aws:sns:" + region + ":" + accountId + ":" + name;
    }

    private String queueArn(String name) {
        return "arn:aws:sqs:" + region + ":" + accountId + ":" + name;
    }

    private String queueUrl(String name) {
        return queueUrls.computeIfAbsent(name, n -> {
            try {
                return sqs.getQueueUrl(b -> b.queueName(n)).queueUrl();
            } catch (SdkException e) {
                throw new IllegalStateException(
                        "the queue '" + n + "' is not reachable on the local SQS endpoint ("
                                + e.getMessage() + "). Create it first, or name the existing one with --physical-name "
                                + "<LogicalId>=<queue name>",
                        e);
            }
        });
    }

    private String physicalName(String logicalId, String nameProperty) {
        if (physicalNames.containsKey(logicalId)) {
            return physicalNames.get(logicalId);
        }
        Object declared =
                template.resolveParameters(template.properties(logicalId).get(nameProperty));
        return declared instanceof String name ? name : logicalId;
    }

    private String typeOf(String logicalId) {
        return template.hasResource(logicalId) ? String.valueOf(template.type(logicalId)) : "";
    }
}
