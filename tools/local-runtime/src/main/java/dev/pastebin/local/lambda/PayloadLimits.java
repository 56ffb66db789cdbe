package dev.pastebin.local.lambda;

/**
 * Lambda's payload limits for a synchronous (RequestResponse) invoke, the way API Gateway and event source
 * mappings call a function: 6 MB each way, in the exact bytes Lambda's errors name.
 */
public final class PayloadLimits {

    /** The largest event: "Request must be smaller than 6291456 bytes for the InvokeFunction operation". */
    public static final int REQUEST_BYTES = 6_291_456;

    /** The largest response: "Response payload size exceeded maximum allowed payload size (6291556 bytes)". */
    public static final int RESPONSE_BYTES = 6_291_556;

    private PayloadLimits() {}
}
