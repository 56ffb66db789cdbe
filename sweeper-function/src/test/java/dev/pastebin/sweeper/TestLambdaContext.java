package dev.pastebin.sweeper;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;

import java.util.UUID;
import java.util.function.BooleanSupplier;

/**
 * A Lambda {@link Context} as the runtime passes it, with a remaining time the test controls: plenty while
 * {@code timeLeft} says so, then less than any stop margin. This makes "the deadline is near" deterministic
 * instead of racing a clock (and independent of who else asks, e.g. Micronaut filling the MDC).
 */
final class TestLambdaContext implements Context {

    private final String requestId = UUID.randomUUID().toString();
    private final BooleanSupplier timeLeft;

    private TestLambdaContext(BooleanSupplier timeLeft) {
        this.timeLeft = timeLeft;
    }

    static TestLambdaContext withPlentyOfTime() {
        return new TestLambdaContext(() -> true);
    }

    static TestLambdaContext alreadyNearTheDeadline() {
        return new TestLambdaContext(() -> false);
    }

    /** The deadline is near as soon as {@code condition} no longer holds. */
    static TestLambdaContext runningOutWhen(BooleanSupplier nearDeadline) {
        return new TestLambdaContext(() -> !nearDeadline.getAsBoolean());
    }

    @Override
    public int getRemainingTimeInMillis() {
        return timeLeft.getAsBoolean() ? 300_000 : 1_000;
    }

    @Override
    public String getAwsRequestId() {
        return requestId;
    }

    @Override
    public String getLogGroupName() {
        return "/aws/lambda/pastebin-sweeper";
    }

    @Override
    public String getLogStreamName() {
        return "2026/01/01/[$LATEST]test";
    }

    @Override
    public String getFunctionName() {
        return "pastebin-sweeper";
    }

    @Override
    public String getFunctionVersion() {
        return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
        return "arn:aws:lambda:us-east-1:000000000000:function:pastebin-sweeper";
    }

    @Override
    public CognitoIdentity getIdentity() {
        return null;
    }

    @Override
    public ClientContext getClientContext() {
        return null;
    }

    @Override
    public int getMemoryLimitInMB() {
        return 512;
    }

    @Override
    public LambdaLogger getLogger() {
        return null;
    }
}
