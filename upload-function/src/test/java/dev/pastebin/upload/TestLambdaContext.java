package dev.pastebin.upload;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/** A Lambda {@link Context} with a real deadline, as the runtime hands one to each invocation. */
record TestLambdaContext(String awsRequestId, Instant deadline) implements Context {

    static TestLambdaContext withRemaining(Duration remaining) {
        return new TestLambdaContext(UUID.randomUUID().toString(), Instant.now().plus(remaining));
    }

    @Override
    public String getAwsRequestId() {
        return awsRequestId;
    }

    @Override
    public String getLogGroupName() {
        return "/aws/lambda/pastebin-upload";
    }

    @Override
    public String getLogStreamName() {
        return "test";
    }

    @Override
    public String getFunctionName() {
        return "pastebin-upload";
    }

    @Override
    public String getFunctionVersion() {
        return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
        return "arn:aws:lambda:us-east-1:000000000000:function:pastebin-upload";
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
    public int getRemainingTimeInMillis() {
        return (int) Math.max(0, Duration.between(Instant.now(), deadline).toMillis());
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
