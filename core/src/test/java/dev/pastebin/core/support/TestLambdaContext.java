package dev.pastebin.core.support;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import dev.pastebin.core.lambda.CurrentInvocation;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * A Lambda {@link Context} as the runtime passes one to each invocation, with the remaining time under the
 * test's control: a real deadline ({@link #withRemaining}) or a condition that makes "the deadline is near"
 * deterministic instead of racing a clock ({@link #runningOutWhen}).
 */
public final class TestLambdaContext implements Context {

    private static final int PLENTY_MILLIS = 300_000;
    private static final int NEAR_DEADLINE_MILLIS = 1_000;

    private final String requestId = UUID.randomUUID().toString();
    private final IntSupplier remainingMillis;

    private TestLambdaContext(IntSupplier remainingMillis) {
        this.remainingMillis = remainingMillis;
    }

    /** A deadline {@code remaining} from now, counting down in real time. */
    public static TestLambdaContext withRemaining(Duration remaining) {
        Instant deadline = Instant.now().plus(remaining);
        return new TestLambdaContext(() ->
                (int) Math.max(0, Duration.between(Instant.now(), deadline).toMillis()));
    }

    public static TestLambdaContext withPlentyOfTime() {
        return new TestLambdaContext(() -> PLENTY_MILLIS);
    }

    public static TestLambdaContext alreadyNearTheDeadline() {
        return new TestLambdaContext(() -> NEAR_DEADLINE_MILLIS);
    }

    /** Plenty of time until {@code nearDeadline} holds, then less than any stop margin. */
    public static TestLambdaContext runningOutWhen(BooleanSupplier nearDeadline) {
        return new TestLambdaContext(() -> nearDeadline.getAsBoolean() ? NEAR_DEADLINE_MILLIS : PLENTY_MILLIS);
    }

    /** A current invocation that has begun with this Context, as a handler begins one before any work. */
    public CurrentInvocation asCurrentInvocation() {
        CurrentInvocation invocation = new CurrentInvocation();
        invocation.begin(this);
        return invocation;
    }

    @Override
    public int getRemainingTimeInMillis() {
        return remainingMillis.getAsInt();
    }

    @Override
    public String getAwsRequestId() {
        return requestId;
    }

    @Override
    public String getLogGroupName() {
        return "/aws/lambda/pastebin-test";
    }

    @Override
    public String getLogStreamName() {
        return "2026/01/01/[$LATEST]test";
    }

    @Override
    public String getFunctionName() {
        return "pastebin-test";
    }

    @Override
    public String getFunctionVersion() {
        return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
        return "arn:aws:lambda:us-east-1:000000000000:function:pastebin-test";
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
