package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.priming.DatabasePrimer;
import dev.pastebin.core.priming.Primer;
import dev.pastebin.core.priming.Priming;
import dev.pastebin.core.priming.PrimingResource;
import dev.pastebin.core.priming.StoragePrimer;
import dev.pastebin.core.priming.UploadQueuePrimer;
import dev.pastebin.core.support.RealServices;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The upload function as Lambda builds it primes its database, bucket and queue, and registers for SnapStart. */
@RealServices
class UploadPrimingIT {

    @Test
    void primesTheDatabaseTheBucketAndTheQueue() throws Exception {
        try (var handler = new UploadHandler()) {
            var context = handler.getApplicationContext();
            Set<Class<?>> primers = context.getBeansOfType(Primer.class).stream()
                    .map(Object::getClass)
                    .collect(Collectors.toSet());
            assertEquals(Set.of(DatabasePrimer.class, StoragePrimer.class, UploadQueuePrimer.class), primers);
            assertTrue(context.containsBean(PrimingResource.class), "registered as a CRaC resource");
            assertEquals(
                    3, context.getBean(Priming.class).run("test"), "every primer succeeds against the real services");
        }
    }
}
