package dev.pastebin.core.lambda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.TestLambdaContext;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.ApplicationContextProvider;
import io.micronaut.function.aws.HandlerUtils;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What each invocation of a warm execution environment does with its Lambda Context, through the call both kinds of
 * Micronaut handler make before any work ({@link HandlerUtils#configureWithContext}).
 */
class InvocationContextTest {

    @Test
    void aWarmEnvironmentRegistersNoBeanPerInvocation() {
        try (ApplicationContext context = ApplicationContext.run()) {
            ApplicationContextProvider handler = () -> context;
            HandlerUtils.configureWithContext(handler, TestLambdaContext.withPlentyOfTime());
            int afterTheFirst = context.getAllBeanDefinitions().size();

            for (int invocation = 2; invocation <= 500; invocation++) {
                HandlerUtils.configureWithContext(handler, TestLambdaContext.withPlentyOfTime());
            }

            // Each bean registered per invocation is one more every later lookup walks through: an environment's
            // requests would cost more the more it has served.
            assertEquals(afterTheFirst, context.getAllBeanDefinitions().size());
        }
    }

    @Test
    void theDeadlineIsTheCurrentInvocations() {
        try (ApplicationContext context = ApplicationContext.run()) {
            ApplicationContextProvider handler = () -> context;
            InvocationDeadlines deadlines = context.getBean(InvocationDeadlines.class);
            Duration margin = Duration.ofSeconds(2);
            assertEquals(Long.MAX_VALUE, deadlines.current(margin).remainingMillis(), "outside an invocation: none");

            HandlerUtils.configureWithContext(handler, TestLambdaContext.withPlentyOfTime());
            assertTrue(deadlines.current(margin).allowsMoreWork());

            HandlerUtils.configureWithContext(handler, TestLambdaContext.alreadyNearTheDeadline());
            assertFalse(deadlines.current(margin).allowsMoreWork(), "the second invocation's deadline");

            HandlerUtils.configureWithContext(handler, TestLambdaContext.withPlentyOfTime());
            assertTrue(deadlines.current(margin).allowsMoreWork(), "the third invocation's deadline");
        }
    }
}
