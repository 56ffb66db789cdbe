package dev.pastebin.core.priming;

import io.micronaut.context.annotation.Requires;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.context.event.StartupEvent;
import io.micronaut.core.util.StringUtils;
import jakarta.inject.Singleton;

/**
 * The same priming at Init, when {@code pastebin.priming.at-init} ({@code PASTEBIN_PRIMING_AT_INIT}) is
 * true: what a SnapStart restore starts from, without SnapStart. The benchmarks use it to measure the
 * first invocation after priming locally; on Lambda without SnapStart it moves the warm-up into Init.
 */
@Singleton
@Requires(property = PrimeAtInit.PROPERTY, value = StringUtils.TRUE)
public class PrimeAtInit implements ApplicationEventListener<StartupEvent> {

    public static final String PROPERTY = "pastebin.priming.at-init";

    private final Priming priming;

    public PrimeAtInit(Priming priming) {
        this.priming = priming;
    }

    @Override
    public void onApplicationEvent(StartupEvent event) {
        priming.run("at init");
    }
}
