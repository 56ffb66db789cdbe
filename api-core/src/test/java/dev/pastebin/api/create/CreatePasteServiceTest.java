package dev.pastebin.api.create;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.config.UploadQueueProperties;
import dev.pastebin.core.failure.Dependency;
import dev.pastebin.core.failure.DependencyCalls;
import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.failure.FailureClassifier;
import dev.pastebin.core.job.UploadJobCodec;
import dev.pastebin.core.paste.DeleteTokens;
import dev.pastebin.core.paste.Paste;
import dev.pastebin.core.paste.PasteMetadata;
import dev.pastebin.core.paste.PasteProperties;
import dev.pastebin.core.paste.PasteRepository;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.support.CapturedMetrics;
import dev.pastebin.core.support.EmptyBlocklist;
import io.micronaut.data.exceptions.DataAccessException;
import io.micronaut.serde.ObjectMapper;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.SendMessageRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageResponse;

/**
 * The create path's failure branches that need two failures at once, which the ITs cannot arrange against one
 * real database: the job cannot be queued and then the row cannot be marked FAILED either.
 */
class CreatePasteServiceTest {

    private final List<String> markedFailed = new ArrayList<>();

    @Test
    void whenTheJobCannotBeQueuedAndTheRowNotMarkedFailedTheAnswerIsStill503() {
        var service = service(new FailingMarkRepository(
                new DataAccessException("down", new SQLException("Connection refused", "08001"))));

        var failure = assertThrows(
                DependencyUnavailableException.class,
                () -> service.create(hello(), null, null, CreateCredential.NONE, ClientAddress.UNKNOWN));

        assertEquals(Dependency.UPLOAD_QUEUE, failure.dependency(), "the queue is what failed first");
        assertEquals(1, markedFailed.size(), "marking FAILED was tried");
        assertTrue(markedFailed.getFirst().startsWith("enqueue failed: "), markedFailed.toString());
    }

    @Test
    void whenTheRowIsNoLongerInProgressMarkingItFailedMovesNothingAndTheAnswerIs503() {
        var service = service(new FailingMarkRepository(null));

        assertThrows(
                DependencyUnavailableException.class,
                () -> service.create(hello(), null, null, CreateCredential.NONE, ClientAddress.UNKNOWN));
        assertEquals(1, markedFailed.size());
    }

    private static PasteRequest hello() {
        return new PasteRequest("hello".getBytes(StandardCharsets.UTF_8), PasteOptions.NONE, PasteMetadata.NONE);
    }

    /** No Idempotency-Key in these tests: the key table and the transaction around it are never reached. */
    private CreatePasteService service(PasteRepository repository) {
        SqsClient unreachable = new SqsClient() {
            @Override
            public SendMessageResponse sendMessage(SendMessageRequest request) {
                throw SdkClientException.create(
                        "Unable to execute HTTP request", new ConnectException("Connection refused"));
            }

            @Override
            public String serviceName() {
                return "sqs";
            }

            @Override
            public void close() {}
        };
        FailureClassifier classifier = new FailureClassifier();
        DependencyCalls dependencies = new DependencyCalls(classifier);
        IdempotencyKeys idempotencyKeys = new IdempotencyKeys();
        UploadJobSender jobs = new UploadJobSender(
                repository,
                idempotencyKeys,
                null,
                new UploadJobCodec(ObjectMapper.getDefault()),
                unreachable,
                new UploadQueueProperties("http://127.0.0.1:4566/000000000000/q", 393_216),
                dependencies,
                // the delay off: no statement, so no connection
                new UploadFairness(new UploadFairnessProperties(false, 100, 20, 900), null));
        return new CreatePasteService(
                repository,
                idempotencyKeys,
                null,
                new ShortCodes(new PasteProperties(11, 262_144)),
                new DeleteTokens(),
                dependencies,
                classifier,
                new IdempotentReplay(repository, jobs, dependencies),
                jobs,
                new EmptyBlocklist(),
                // anyone may create: no statement, so no connection
                new CreateAccess(
                        new CreateAccessProperties(CreateAccessProperties.Mode.ANYONE),
                        new ApiKeyLookup(null, dependencies),
                        null,
                        dependencies),
                new CapturedMetrics().metrics("create"));
    }

    /** Inserts succeed; counting the failed send throws {@code failure}, or finds the row already terminal when null. */
    private final class FailingMarkRepository implements PasteRepository {

        private final RuntimeException failure;

        FailingMarkRepository(RuntimeException failure) {
            this.failure = failure;
        }

        @Override
        public Paste save(Paste paste) {
            return paste;
        }

        @Override
        public Optional<Paste> findById(String shortCode) {
            return Optional.empty();
        }

        @Override
        public int markProcessed(String shortCode, String s3Location) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int recordUploadAttempt(String shortCode) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int recordFirstHold(String shortCode, java.time.Instant heldAt) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Optional<Paste> findByIdForUpdate(String shortCode) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<Paste> findByContentSha256ForUpdate(String contentSha256, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<String> findCodesByContentSha256(String contentSha256, int limit) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int addDeleteToken(String shortCode, String deleteTokenSha256, int maxReplays) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int deleteWithToken(String shortCode, String deleteTokenSha256) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int removeInProgress(String shortCode) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int remove(String shortCode) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int burn(String shortCode) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int markFailed(String shortCode, String reason) {
            throw new UnsupportedOperationException("a create's compensation counts its failed send instead");
        }

        @Override
        public long countPendingUploads(String uploadGroup, String shortCode) {
            throw new UnsupportedOperationException("the fairness delay is off here");
        }

        @Override
        public Optional<Boolean> countJobSendFailure(String shortCode, String reason) {
            markedFailed.add(reason);
            if (failure != null) {
                throw failure;
            }
            return Optional.empty();
        }
    }
}
