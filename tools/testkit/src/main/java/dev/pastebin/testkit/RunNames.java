package dev.pastebin.testkit;

import java.util.Map;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

/**
 * The names of one run's own database, upload queue, dead-letter queue and bucket, so that runs never share state:
 * {@code <prefix>_<run>} for the database (a plain PostgreSQL name: the run id's dashes become underscores), and
 * {@code <prefix>-<run>-uploads}, {@code <prefix>-<run>-uploads-dlq} and {@code <prefix>-<run>-pastes} in LocalStack.
 */
public record RunNames(String database, String queue, String deadLetterQueue, String bucket) {

    public static RunNames of(String prefix, String runId) {
        return new RunNames(
                prefix + "_" + runId.replace('-', '_'),
                prefix + "-" + runId + "-uploads",
                prefix + "-" + runId + "-uploads-dlq",
                prefix + "-" + runId + "-pastes");
    }

    /**
     * The variables of infra/local/lib.sh that give the run command ({@code infra/local/run.sh}) these names: its
     * {@code up} creates the database, the queues and the bucket under them, and the functions use them.
     */
    public Map<String, String> environment() {
        return Map.of(
                "PASTEBIN_DB_NAME", database,
                "PASTEBIN_UPLOAD_QUEUE", queue,
                "PASTEBIN_UPLOAD_DLQ", deadLetterQueue,
                "PASTEBIN_STORAGE_BUCKET", bucket);
    }

    /** Deletes the run's two queues and its bucket, with everything in it, from LocalStack (not the database). */
    public void removeFrom(SqsClient sqs, S3Client s3) {
        RunQueues queues = new RunQueues(sqs);
        queues.find(queue);
        queues.find(deadLetterQueue);
        queues.deleteAll();
        new RunBucket(s3, bucket).remove();
    }
}
