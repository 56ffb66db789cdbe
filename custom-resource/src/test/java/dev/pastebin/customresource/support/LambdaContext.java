package dev.pastebin.customresource.support;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;

/** A Lambda context with a fixed remaining time. */
public record LambdaContext(int remainingMillis) implements Context {

    @Override
    public String getAwsRequestId() {
        return "request";
    }

    @Override
    public String getLogGroupName() {
        return "/aws/lambda/custom-resource";
    }

    @Override
    public String getLogStreamName() {
        return "2024/01/01/[$LATEST]abc";
    }

    @Override
    public String getFunctionName() {
        return "custom-resource";
    }

    @Override
    public String getFunctionVersion() {
        return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
        return "arn:aws:lambda:eu-west-1:123456789012:function:custom-resource";
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
        return remainingMillis;
    }

    @Override
    public int getMemoryLimitInMB() {
        return 1024;
    }

    @Override
    public LambdaLogger getLogger() {
        return null;
    }
}
