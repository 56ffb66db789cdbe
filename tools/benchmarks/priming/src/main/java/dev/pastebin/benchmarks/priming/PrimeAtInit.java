package dev.pastebin.benchmarks.priming;

import dev.pastebin.core.priming.Priming;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.context.event.StartupEvent;
import jakarta.inject.Singleton;

/**
 * Runs the function's SnapStart primers ({@link Priming}, what {@code PrimingResource} runs before a snapshot)
 * once its application context has started, i.e. at Init: the state a SnapStart restore resumes from, minus
 * the restore itself. Benchmark-only: the harness puts this jar on a copy of the function's class path.
 */
@Singleton
public class PrimeAtInit implements ApplicationEventListener<StartupEvent> {

    private final Priming priming;

    public PrimeAtInit(Priming priming) {
        this.priming = priming;
    }

    @Override
    public void onApplicationEvent(StartupEvent event) {
        priming.run("at init");
    }
}
