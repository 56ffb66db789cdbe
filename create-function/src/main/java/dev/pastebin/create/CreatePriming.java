package dev.pastebin.create;

import dev.pastebin.api.priming.PrimingRequest;
import dev.pastebin.core.config.UploadQueueProperties;
import dev.pastebin.core.job.UploadJob;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.ContentHash;
import dev.pastebin.core.paste.DeleteTokens;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteMetadata;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.priming.Primer;
import io.micronaut.context.annotation.Factory;
import io.micronaut.json.JsonMapper;
import io.micronaut.transaction.TransactionOperations;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.util.Map;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SqsException;

/**
 * Everything create primes with before a SnapStart snapshot (core.priming), in one place: a request through
 * the handler (an empty paste, refused with 400 before anything is stored or queued), and the success path the
 * refused request never reaches, rehearsed without its effects: the row inserted and rolled back, the job
 * encoded, a SendMessage that SQS refuses before it stores anything (an empty body is invalid), and the JSON of
 * a 201 body. Core's primers open the SQS client and the database connection.
 */
@Factory
class CreatePriming {

    @Singleton
    PrimingRequest emptyPaste() {
        return new PrimingRequest("POST", "/pastes", Map.of("content-type", "text/plain; charset=utf-8"), "", 400);
    }

    @Singleton
    Primer successPath(
            PasteRepository repository,
            TransactionOperations<Connection> transactions,
            ShortCodes shortCodes,
            DeleteTokens deleteTokens,
            UploadJobCodec codec,
            SqsClient sqs,
            UploadQueueProperties queue,
            JsonMapper json) {
        return new SuccessPath(repository, transactions, shortCodes, deleteTokens, codec, sqs, queue, json);
    }

    /** The success path of a create, without its effects. */
    record SuccessPath(
            PasteRepository repository,
            TransactionOperations<Connection> transactions,
            ShortCodes shortCodes,
            DeleteTokens deleteTokens,
            UploadJobCodec codec,
            SqsClient sqs,
            UploadQueueProperties queue,
            JsonMapper json)
            implements Primer {

        private static final byte[] CONTENT = "priming".getBytes(StandardCharsets.UTF_8);

        @Override
        public String name() {
            return "create's success path (INSERT rolled back, SendMessage refused, 201 body)";
        }

        @Override
        public void prime() throws Exception {
            String sha256 = ContentHash.sha256Hex(CONTENT);
            Paste paste = Paste.inProgress(
                    shortCodes.next(),
                    null,
                    sha256,
                    CONTENT.length,
                    deleteTokens.issue().sha256(),
                    null,
                    false,
                    PasteMetadata.NONE);
            transactions.executeWrite(status -> {
                repository.save(paste);
                status.setRollbackOnly();
                return null;
            });
            codec.encode(new UploadJob(paste.shortCode(), sha256, CONTENT));
            try {
                sqs.sendMessage(b -> b.queueUrl(queue.url()).messageBody(""));
                throw new IllegalStateException("SQS accepted a message with an empty body");
            } catch (SqsException refused) {
                if (refused.statusCode() != 400) {
                    throw refused;
                }
            }
            json.writeValueAsBytes(new CreatedPaste(
                    "priming0",
                    PasteStatus.IN_PROGRESS.name(),
                    "https://priming.invalid/pastes/priming0",
                    "priming",
                    null,
                    false));
        }
    }
}
