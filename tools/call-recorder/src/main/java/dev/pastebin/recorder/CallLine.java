package dev.pastebin.recorder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import software.amazon.awssdk.core.SdkField;
import software.amazon.awssdk.core.SdkPojo;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * The JSON line of one call, every field always present ({@code null} where there is nothing to say):
 *
 * <pre>{@code
 * {"function": "SweeperFunction",          // AWS_LAMBDA_FUNCTION_NAME: the template's logical id locally
 *  "service": "Sqs", "signingName": "sqs", // the SDK's service name; the service of the SigV4 credential scope
 *  "operation": "ReceiveMessage",          // the SDK's operation name (the API action)
 *  "scheme": "http", "host": "127.0.0.1:4566",        // where the last attempt went (port only when not standard)
 *  "identifiers": {"QueueUrl": "http://..."},          // resource members of the request, below
 *  "env": {"QueueUrl": ["PASTEBIN_UPLOAD_DLQ_URL"]},   // per identifier: the function's variables naming it
 *  "status": 200,                          // HTTP status of the response; "error" when there was none
 *  "error": null,                          // class of the exception of a failed call (with or without a response)
 *  "presigned": false}
 * }</pre>
 *
 * <p>Identifiers are the request's members (any service: the model's member names, found through {@link SdkPojo})
 * named in {@link #IDENTIFIERS}. A member of the request itself is a string ({@code "Bucket": "b"}); one inside a
 * structure or list of structures is named by its path and is a list of its distinct values
 * ({@code "Delete.Objects.Key": ["pastes/"]} for DeleteObjects). An object key or prefix is cut after its first
 * {@code /} ({@code "pastes/"}), and is {@code ""} when it has none: the key itself is never recorded. {@code env}
 * lists, per identifier, the names of the function's environment variables whose value equals one of its values,
 * for a queue URL also its queue name (the URL's last segment); sorted, empty when none does.
 */
final class CallLine {

    /** Request members that name a resource (an ARN, a name, a URL or a key) an IAM or resource policy is about. */
    static final Set<String> IDENTIFIERS = Set.of(
            "Bucket",
            "Key",
            "Prefix",
            "QueueUrl",
            "TopicArn",
            "TargetArn",
            "SecretId",
            "DistributionId",
            "StackName",
            "FunctionName",
            "Namespace",
            "LogGroupName",
            "KeyId");

    private static final Set<String> KEY_MEMBERS = Set.of("Key", "Prefix");

    /** Deep enough for DeleteObjects' Delete.Objects[].Key; the walk never goes further. */
    private static final int MAX_DEPTH = 3;

    private CallLine() {}

    static String of(
            String function,
            String service,
            String operation,
            SdkRequest request,
            SdkHttpRequest sent,
            Integer status,
            String error,
            Map<String, String> environment) {
        Map<String, Object> identifiers = identifiers(request);
        Json json = new Json()
                .field("function", function)
                .field("service", service)
                .field("signingName", sent == null ? null : signingName(sent))
                .field("operation", operation)
                .field("scheme", sent == null ? null : sent.protocol())
                .field("host", sent == null ? null : authority(sent));
        json.name("identifiers").map(identifiers);
        json.name("env").map(environmentNames(identifiers, environment));
        if (status != null) {
            json.field("status", status.intValue());
        } else {
            json.field("status", "error");
        }
        return json.field("error", error).field("presigned", false).end();
    }

    /** The request's identifying members, in the model's order. */
    static Map<String, Object> identifiers(SdkRequest request) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (request != null) {
            collect(request, "", out, 0);
        }
        return out;
    }

    private static void collect(SdkPojo pojo, String path, Map<String, Object> out, int depth) {
        for (SdkField<?> field : pojo.sdkFields()) {
            String name = field.memberName();
            Object value = field.getValueOrDefault(pojo);
            if (value instanceof String text) {
                if (IDENTIFIERS.contains(name)) {
                    String recorded = KEY_MEMBERS.contains(name) ? keyPrefix(text) : text;
                    if (path.isEmpty()) {
                        out.put(name, recorded);
                    } else {
                        @SuppressWarnings("unchecked")
                        List<String> values = (List<String>) out.computeIfAbsent(path + name, n -> new ArrayList<>());
                        if (!values.contains(recorded)) {
                            values.add(recorded);
                        }
                    }
                }
            } else if (depth < MAX_DEPTH && value instanceof SdkPojo nested) {
                collect(nested, path + name + ".", out, depth + 1);
            } else if (depth < MAX_DEPTH && value instanceof List<?> list) {
                for (Object element : list) {
                    if (element instanceof SdkPojo nested) {
                        collect(nested, path + name + ".", out, depth + 1);
                    }
                }
            }
        }
    }

    /** {@code "pastes/abc"} is {@code "pastes/"}; a key without {@code /} is {@code ""}. */
    static String keyPrefix(String key) {
        int slash = key.indexOf('/');
        return slash < 0 ? "" : key.substring(0, slash + 1);
    }

    /** Per identifier, the variables whose value is one of its values (or, for a queue URL, its queue's name). */
    static Map<String, Object> environmentNames(Map<String, Object> identifiers, Map<String, String> environment) {
        Map<String, Object> out = new LinkedHashMap<>();
        identifiers.forEach((name, value) -> {
            List<String> values = new ArrayList<>();
            if (value instanceof String text) {
                values.add(text);
            } else if (value instanceof List<?> list) {
                list.forEach(v -> values.add((String) v));
            }
            if (name.endsWith("QueueUrl")) {
                for (String url : List.copyOf(values)) {
                    String trimmed = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
                    values.add(trimmed.substring(trimmed.lastIndexOf('/') + 1));
                }
            }
            values.removeIf(String::isEmpty);
            TreeSet<String> names = new TreeSet<>();
            environment.forEach((variable, setting) -> {
                if (values.contains(setting)) {
                    names.add(variable);
                }
            });
            out.put(name, List.copyOf(names));
        });
        return out;
    }

    /** The service of the SigV4 (or SigV4a) credential scope in the Authorization header; null when unsigned. */
    static String signingName(SdkHttpRequest request) {
        String authorization = request.firstMatchingHeader("Authorization").orElse(null);
        if (authorization == null) {
            return null;
        }
        int start = authorization.indexOf("Credential=");
        if (start < 0) {
            return null;
        }
        start += "Credential=".length();
        int end = start;
        while (end < authorization.length() && authorization.charAt(end) != ',' && authorization.charAt(end) != ' ') {
            end++;
        }
        // <key>/<date>/<region>/<service>/aws4_request (SigV4a: <key>/<date>/<service>/aws4_request)
        String[] scope = authorization.substring(start, end).split("/");
        return scope.length >= 4 && scope[scope.length - 1].equals("aws4_request") ? scope[scope.length - 2] : null;
    }

    /** host, and :port unless it is the scheme's standard one. */
    static String authority(SdkHttpRequest request) {
        int port = request.port();
        boolean standard = port < 0
                || (port == 80 && "http".equals(request.protocol()))
                || (port == 443 && "https".equals(request.protocol()));
        return standard ? request.host() : request.host() + ":" + port;
    }

    /** A JSON object written field by field: strings escaped as RFC 8259 requires, nothing else needed here. */
    static final class Json {

        private final StringBuilder out = new StringBuilder("{");
        private boolean first = true;

        Json name(String name) {
            if (!first) {
                out.append(',');
            }
            first = false;
            string(name);
            out.append(':');
            return this;
        }

        Json field(String name, String value) {
            name(name);
            if (value == null) {
                out.append("null");
            } else {
                string(value);
            }
            return this;
        }

        Json field(String name, int value) {
            name(name).out.append(value);
            return this;
        }

        Json field(String name, boolean value) {
            name(name).out.append(value);
            return this;
        }

        /** A map of strings and lists of strings, as a JSON object. */
        Json map(Map<String, Object> values) {
            out.append('{');
            boolean firstEntry = true;
            for (Map.Entry<String, Object> e : values.entrySet()) {
                if (!firstEntry) {
                    out.append(',');
                }
                firstEntry = false;
                string(e.getKey());
                out.append(':');
                if (e.getValue() instanceof List<?> list) {
                    out.append('[');
                    for (int i = 0; i < list.size(); i++) {
                        if (i > 0) {
                            out.append(',');
                        }
                        string(String.valueOf(list.get(i)));
                    }
                    out.append(']');
                } else {
                    string(String.valueOf(e.getValue()));
                }
            }
            out.append('}');
            return this;
        }

        String end() {
            return out.append('}').toString();
        }

        private void string(String s) {
            out.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                switch (c) {
                    case '"' -> out.append("\\\"");
                    case '\\' -> out.append("\\\\");
                    case '\n' -> out.append("\\n");
                    case '\r' -> out.append("\\r");
                    case '\t' -> out.append("\\t");
                    default -> {
                        // control characters, and the two separators some JSON readers take for line ends
                        if (c < 0x20 || c == '\u2028' || c == '\u2029') {
                            String hex = Integer.toHexString(c);
                            out.append("\\u")
                                    .append("0".repeat(4 - hex.length()))
                                    .append(hex);
                        } else {
                            out.append(c);
                        }
                    }
                }
            }
            out.append('"');
        }
    }
}
