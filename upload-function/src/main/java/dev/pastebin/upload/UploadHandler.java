package dev.pastebin.upload;

import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import io.micronaut.context.ApplicationContext;
import io.micronaut.function.aws.MicronautRequestHandler;
import jakarta.inject.Inject;

/**
 * The upload worker's Lambda entry point: {@code dev.pastebin.upload.UploadHandler}, fed by
 * the upload queue's event source mapping with {@code ReportBatchItemFailures}. It only hands the batch to
 * {@link UploadBatchService}; the messages it reports come back, the others are deleted by Lambda.
 */
public class UploadHandler extends MicronautRequestHandler<SQSEvent, SQSBatchResponse> {

    @Inject
    UploadBatchService batchService;

    /** Used by the Lambda runtime: builds the application context at init. */
    public UploadHandler() {}

    /** Used by tests and the local runtime, with a context they configured. */
    public UploadHandler(ApplicationContext applicationContext) {
        super(applicationContext);
    }

    @Override
    public SQSBatchResponse execute(SQSEvent event) {
        return batchService.process(event);
    }
}
