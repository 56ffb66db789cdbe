package dev.pastebin.migrate;

import io.micronaut.context.annotation.Replaces;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.concurrent.CountDownLatch;

/** A run that never finishes on its own: it waits until the deadline guard aborts it (DatabaseMigrationHandlerTest). */
@Singleton
@Replaces(DatabaseSchemaService.class)
@Requires(property = "pastebin.test.stalled-schema", value = "true")
class StalledSchemaService extends DatabaseSchemaService {

    private final CountDownLatch aborted = new CountDownLatch(1);

    StalledSchemaService() {
        super(null, null, null);
    }

    @Override
    String apply(SchemaRequest request) {
        try {
            aborted.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new IllegalStateException("aborted");
    }

    @Override
    void abort() {
        aborted.countDown();
    }
}
