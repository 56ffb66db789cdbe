package dev.pastebin.core.priming;

import io.micronaut.context.annotation.Requires;
import io.micronaut.core.order.Ordered;
import io.micronaut.crac.OrderedResource;
import jakarta.inject.Singleton;
import org.crac.Context;
import org.crac.Resource;

/**
 * SnapStart priming: before the snapshot, every {@link Primer} runs, so the snapshot holds loaded classes,
 * warmed code and initialised SDK clients instead of the first restored request paying for them.
 *
 * <p>Ordered last, so it is registered after micronaut-crac's data-source resource, and CRaC calls
 * {@code beforeCheckpoint} in reverse registration order: priming runs while the Hikari pool is still
 * open, then micronaut-crac suspends the pool and evicts the connection priming opened (a socket does not
 * survive a restore); after the restore the pool resumes and connects anew on first use. Jitter needs no
 * re-seeding here: it draws from {@code RestoreSafeRandom}.
 */
@Singleton
@Requires(classes = OrderedResource.class)
public class PrimingResource implements OrderedResource {

    private final Priming priming;

    public PrimingResource(Priming priming) {
        this.priming = priming;
    }

    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) {
        priming.run("before checkpoint");
    }

    @Override
    public void afterRestore(Context<? extends Resource> context) {
        // Nothing to undo: the pool is resumed by micronaut-crac, SDK clients reconnect on their next call.
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
