package dev.pastebin.faults;

import dev.pastebin.faults.FaultProxy.Fault;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The AWS service a proxy stands in front of: which of its requests an answered fault hits, how its errors
 * look on the wire, which faults the control API's modes mean, and how its requests are named for counting.
 */
public enum Service {

    /**
     * Path-style S3 (the project's clients force it). Answered faults hit object PUTs only, the upload path:
     * reads, lists and deletes pass unless a test scripts them. Errors are S3's XML error documents.
     */
    S3(Fault.INTERNAL_ERROR_500, Fault.SLOW_DOWN_503) {
        @Override
        boolean faultable(Request request) {
            return request.isObjectPut();
        }

        @Override
        Answer error(Fault fault) {
            String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + fault.code() + "</Code><Message>"
                    + INJECTED + "</Message><RequestId>fault-proxy</RequestId></Error>";
            return new Answer(fault.status(), "application/xml", Map.of("x-amz-request-id", "fault-proxy"), xml);
        }

        @Override
        String operation(Request request) {
            return "s3." + S3Operations.name(request);
        }
    },

    /**
     * SQS in the AWS JSON protocol (what the SDK speaks to it). Answered faults hit every call; the error
     * carries its code also in {@code x-amzn-query-error}, for clients of the query protocol.
     */
    SQS(Fault.SERVICE_UNAVAILABLE_503, Fault.THROTTLING_400) {
        @Override
        boolean faultable(Request request) {
            return true;
        }

        @Override
        Answer error(Fault fault) {
            String json = "{\"__type\":\"com.amazonaws.sqs#" + fault.code() + "\",\"message\":\"" + INJECTED + "\"}";
            String party = fault.status() < 500 ? "Sender" : "Receiver";
            return new Answer(
                    fault.status(),
                    "application/x-amz-json-1.0",
                    Map.of("x-amzn-query-error", fault.code() + ";" + party),
                    json);
        }

        @Override
        String operation(Request request) {
            return "sqs." + rpcOperation(request);
        }
    },

    /**
     * Secrets Manager in the AWS JSON 1.1 protocol (the database credentials' secret). Answered faults hit every
     * call; its errors name their code in {@code __type}.
     */
    SECRETS_MANAGER(Fault.INTERNAL_SERVICE_ERROR_500, Fault.THROTTLING_400) {
        @Override
        boolean faultable(Request request) {
            return true;
        }

        @Override
        Answer error(Fault fault) {
            String json = "{\"__type\":\"" + fault.code() + "\",\"message\":\"" + INJECTED + "\"}";
            return new Answer(fault.status(), "application/x-amz-json-1.1", Map.of(), json);
        }

        @Override
        String operation(Request request) {
            return "secretsmanager." + rpcOperation(request);
        }
    };

    /** An error as the proxy sends it. */
    record Answer(int status, String contentType, Map<String, String> headers, String body) {
        byte[] bytes() {
            return body.getBytes(StandardCharsets.UTF_8);
        }
    }

    private static final String INJECTED = "injected by the fault proxy";

    private final Fault serverError;
    private final Fault throttling;

    Service(Fault serverError, Fault throttling) {
        this.serverError = serverError;
        this.throttling = throttling;
    }

    /** Whether an answered fault switched on for everyone (an outage, throttling, flakiness) hits this request. */
    abstract boolean faultable(Request request);

    /** The service's error answer for {@code fault} (one that is answered, not HANG or DROP_CONNECTION). */
    abstract Answer error(Fault fault);

    /**
     * The request's operation, prefixed with the service: {@code s3.PutObject}, {@code sqs.SendMessage},
     * {@code secretsmanager.GetSecretValue}.
     */
    abstract String operation(Request request);

    /** The fault a switched-on mode injects. */
    Fault faultOf(Mode mode) {
        return switch (mode) {
            case OUTAGE, FLAKY -> serverError;
            case THROTTLE -> throttling;
            case DOWN -> Fault.DROP_CONNECTION;
            case OFF -> throw new IllegalArgumentException("off injects nothing");
        };
    }

    /** The name the CLI and the operation names use: {@code s3}, {@code sqs}, {@code secretsmanager}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace("_", "");
    }

    /** The service named {@code label} ("s3"), or an IllegalArgumentException naming them all. */
    public static Service of(String label) {
        for (Service service : values()) {
            if (service.label().equals(label)) {
                return service;
            }
        }
        throw new IllegalArgumentException("service is one of "
                + Arrays.stream(values()).map(Service::label).collect(Collectors.joining(", ")) + "; not '" + label
                + "'");
    }

    /**
     * An RPC-style call's operation: the AWS JSON protocol names it in {@code X-Amz-Target}
     * ({@code AmazonSQS.SendMessage}), the query protocol in the {@code Action} parameter of the form body or
     * the query string.
     */
    static String rpcOperation(Request request) {
        String target = request.header("x-amz-target").orElse(null);
        if (target != null) {
            return target.substring(target.lastIndexOf('.') + 1);
        }
        String action = request.queryParameters().get("Action");
        if (action == null
                && request.header("content-type").orElse("").startsWith("application/x-www-form-urlencoded")) {
            action = Request.parameters(new String(request.body(), StandardCharsets.UTF_8))
                    .get("Action");
        }
        return action != null ? action : request.method() + " " + request.path();
    }
}
