package dev.pastebin.benchmarks.variants;

import io.micronaut.context.ApplicationContextBuilder;
import io.micronaut.function.aws.LambdaApplicationContextBuilder;
import io.micronaut.function.aws.proxy.payload2.APIGatewayV2HTTPEventFunction;

/**
 * The HTTP functions' handler with lazy singletons: the knob "eager vs lazy singleton init". The
 * Lambda builder makes every singleton at init (pool, SDK clients); this one builds them on first use.
 * Appended to a copy of a function's lib/ by the harness; never shipped.
 */
public class LazyApiGatewayV2Function extends APIGatewayV2HTTPEventFunction {

    @Override
    protected ApplicationContextBuilder newApplicationContextBuilder() {
        return new LambdaApplicationContextBuilder().eagerInitSingletons(false);
    }
}
