package dev.pastebin.faults;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The S3 operation of a path-style request, from its method, path and query: the AWS name for the calls the
 * project makes (PutObject, GetObject, HeadObject, DeleteObject, DeleteObjects, ListObjectsV2, CreateBucket,
 * ...); a request with a subresource ({@code ?tagging}, {@code ?lifecycle}) is named method + Bucket/Object +
 * subresource (GetObjectTagging, PutBucketLifecycle), which is the AWS name for most of them.
 */
final class S3Operations {

    /** Parameters that are an operation's arguments, never its subresource, even when empty ({@code prefix=}). */
    private static final Set<String> ARGUMENTS = Set.of(
            "prefix",
            "delimiter",
            "marker",
            "start-after",
            "continuation-token",
            "encoding-type",
            "max-keys",
            "fetch-owner",
            "key-marker",
            "version-id-marker",
            "upload-id-marker",
            "versionId",
            "partNumber");

    private S3Operations() {}

    static String name(Request request) {
        Map<String, String> query = request.queryParameters();
        String explicit = query.get("x-id"); // newer SDKs name the operation themselves
        if (explicit != null) {
            return explicit;
        }
        String method = request.method();
        boolean object = request.objectPath().isPresent();
        if (query.containsKey("uploadId")) {
            return switch (method) {
                case "PUT" -> request.header("x-amz-copy-source").isPresent() ? "UploadPartCopy" : "UploadPart";
                case "POST" -> "CompleteMultipartUpload";
                case "DELETE" -> "AbortMultipartUpload";
                default -> "ListParts";
            };
        }
        if (query.containsKey("uploads")) {
            return "POST".equals(method) ? "CreateMultipartUpload" : "ListMultipartUploads";
        }
        if (query.containsKey("delete") && "POST".equals(method)) {
            return "DeleteObjects";
        }
        String subresource = query.entrySet().stream()
                .filter(e -> (e.getValue() == null || e.getValue().isEmpty()) && !ARGUMENTS.contains(e.getKey()))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElse(null);
        if (subresource != null) {
            return verb(method) + (object ? "Object" : "Bucket") + capitalized(subresource);
        }
        if (request.path().equals("/") || request.path().isEmpty()) {
            return "ListBuckets";
        }
        return switch (method) {
            case "PUT" ->
                object
                        ? (request.header("x-amz-copy-source").isPresent() ? "CopyObject" : "PutObject")
                        : "CreateBucket";
            case "GET" -> object ? "GetObject" : ("2".equals(query.get("list-type")) ? "ListObjectsV2" : "ListObjects");
            case "HEAD" -> object ? "HeadObject" : "HeadBucket";
            case "DELETE" -> object ? "DeleteObject" : "DeleteBucket";
            default -> verb(method) + (object ? "Object" : "Bucket");
        };
    }

    private static String verb(String method) {
        return capitalized(method.toLowerCase(Locale.ROOT));
    }

    private static String capitalized(String word) {
        return word.isEmpty() ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1);
    }
}
