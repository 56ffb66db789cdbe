package dev.pastebin.create;

import com.google.re2j.Pattern;
import dev.pastebin.api.create.CreateLargePasteService;
import dev.pastebin.api.create.CreateLargePasteService.DeclaredFile;
import dev.pastebin.api.create.CreateLargePasteService.LargePasteRequest;
import dev.pastebin.api.create.PasteOptions;
import dev.pastebin.api.http.ApiErrorCode;
import dev.pastebin.api.http.ApiException;
import dev.pastebin.core.paste.InvalidFileNameException;
import dev.pastebin.core.paste.PasteMetadata;
import dev.pastebin.core.storage.LargeFileProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.json.tree.JsonNode;
import jakarta.inject.Singleton;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * A large create's declaration (docs/design.md, "Large files: straight to S3"): {@code {"files": [{"name", "size",
 * "sha256", "contentType"}], "expiresIn", "readOnce"}}, checked against the limits before any byte is uploaded: too
 * many files, a file or a total too large is 413 naming the limit; a malformed declaration 400
 * {@code INVALID_FILES} naming the file and field; a bad name 400 {@code INVALID_FILE_NAME}, as a small paste's.
 */
@Singleton
class LargePasteReader {

    static final String FILES = "files";

    private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-fA-F]{64}");
    /** A media type, optionally with a charset: what S3 will answer as the file's Content-Type. */
    private static final Pattern MEDIA_TYPE =
            Pattern.compile("[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]{0,126}"
                    + "(; ?charset=[A-Za-z0-9_.:-]{1,40})?");

    private final LargeFileProperties limits;

    LargePasteReader(LargeFileProperties limits) {
        this.limits = limits;
    }

    /** Whether a create's JSON object declares files (a large create) rather than content. */
    static boolean declaresFiles(JsonNode document) {
        return document.get(FILES) != null;
    }

    LargePasteRequest fromJson(JsonNode document) {
        if (document.get("content") != null) {
            throw invalid("A create has either \"content\" or \"files\", not both");
        }
        JsonNode files = document.get(FILES);
        if (files == null || !files.isArray() || files.size() == 0) {
            throw invalid("\"files\" must be a non-empty array of {\"name\", \"size\", \"sha256\", \"contentType\"}");
        }
        if (files.size() > limits.maxFiles()) {
            throw tooLarge("A paste has at most " + limits.maxFiles() + " files");
        }
        List<DeclaredFile> declared = new ArrayList<>();
        long total = 0;
        for (int i = 0; i < files.size(); i++) {
            DeclaredFile file = file(files.get(i), i);
            total += file.sizeBytes();
            declared.add(file);
        }
        requireTotalWithinLimit(total);
        // read once too: its reveal burns the row and answers links that expire before its files are deleted
        // (docs/design.md, "Reading once")
        return new LargePasteRequest(
                declared, PasteOptions.fromJson(document.get("expiresIn"), document.get("readOnce")));
    }

    /**
     * One file from a {@code curl -T} upload ({@code PUT /{name}}): its name from the path, its size from
     * Content-Length, its SHA-256 from {@code x-amz-checksum-sha256} when the client sends one (base64, as S3 takes
     * it), else undeclared; its Content-Type only when the client sends one, since the upload signs it and curl
     * re-sends the same headers to S3.
     */
    LargePasteRequest fromUpload(
            String name,
            @Nullable Long contentLength,
            @Nullable String contentType,
            @Nullable String checksumSha256,
            PasteOptions options) {
        if (contentLength == null || contentLength < 1) {
            throw invalid("Send the file with its Content-Length (curl -T sends it for a file, not for stdin), "
                    + "at least 1 byte");
        }
        requireFileWithinLimit(contentLength);
        requireTotalWithinLimit(contentLength);
        return new LargePasteRequest(
                List.of(new DeclaredFile(
                        validName(name),
                        contentLength,
                        checksumSha256 == null ? null : sha256HexOfChecksum(checksumSha256),
                        contentType == null ? null : contentType(contentType, "the upload"))),
                options);
    }

    /** S3's {@code x-amz-checksum-sha256}: the 32 bytes of the SHA-256 in base64, here as lower-case hex. */
    private static String sha256HexOfChecksum(String checksum) {
        byte[] digest;
        try {
            digest = Base64.getDecoder().decode(checksum.strip());
        } catch (IllegalArgumentException e) {
            digest = new byte[0];
        }
        if (digest.length != 32) {
            throw invalid("x-amz-checksum-sha256 must be the file's SHA-256 in base64 (44 characters), "
                    + "e.g. openssl dgst -sha256 -binary FILE | base64");
        }
        return HexFormat.of().formatHex(digest);
    }

    private DeclaredFile file(@Nullable JsonNode file, int index) {
        String which = "files[" + index + "]";
        if (file == null || !file.isObject()) {
            throw invalid(which + " must be an object {\"name\", \"size\", \"sha256\", \"contentType\"}");
        }
        JsonNode name = file.get("name");
        if (name == null || !name.isString()) {
            throw new InvalidFileNameException(which + ".name must be a string");
        }
        JsonNode size = file.get("size");
        if (size == null || !size.isNumber() || !isWholeNumber(size.getNumberValue())) {
            throw invalid(which + ".size must be a whole number of bytes");
        }
        BigDecimal bytes = new BigDecimal(size.getNumberValue().toString());
        if (bytes.signum() < 1) {
            throw invalid(which + ".size must be at least 1");
        }
        if (bytes.compareTo(BigDecimal.valueOf(limits.maxFileBytes())) > 0) {
            throw tooLarge(which + " is larger than the limit of " + limits.maxFileBytes() + " bytes a file");
        }
        JsonNode sha256 = file.get("sha256");
        if (sha256 == null || !sha256.isString() || !SHA256_HEX.matches(sha256.getStringValue())) {
            throw invalid(which + ".sha256 must be the file's SHA-256 as 64 hex digits");
        }
        JsonNode type = file.get("contentType");
        if (type != null && !type.isNull() && !type.isString()) {
            throw invalid(which + ".contentType must be a string");
        }
        return new DeclaredFile(
                validName(name.getStringValue()),
                bytes.longValueExact(),
                sha256.getStringValue().toLowerCase(Locale.ROOT),
                contentType(type == null || type.isNull() ? null : type.getStringValue(), which));
    }

    /** A file's name obeys a small paste's {@code fileName} rule (its Content-Disposition on the way out). */
    private static String validName(String name) {
        return PasteMetadata.of(null, name).fileName();
    }

    private static String contentType(@Nullable String type, String which) {
        if (type == null || type.isBlank()) {
            return CreateLargePasteService.DEFAULT_CONTENT_TYPE;
        }
        if (!MEDIA_TYPE.matches(type)) {
            throw invalid(which + ": the content type must be a media type such as text/plain or application/zip");
        }
        return type;
    }

    private void requireFileWithinLimit(long bytes) {
        if (bytes > limits.maxFileBytes()) {
            throw tooLarge("The file is larger than the limit of " + limits.maxFileBytes() + " bytes a file");
        }
    }

    private void requireTotalWithinLimit(long total) {
        if (total > limits.maxTotalBytes()) {
            throw tooLarge("The files are larger than the limit of " + limits.maxTotalBytes() + " bytes a paste");
        }
    }

    private static boolean isWholeNumber(Number n) {
        try {
            new BigDecimal(n.toString()).toBigIntegerExact();
            return true;
        } catch (ArithmeticException | NumberFormatException e) {
            return false;
        }
    }

    private static ApiException invalid(String message) {
        return new ApiException(ApiErrorCode.INVALID_FILES, message);
    }

    private static ApiException tooLarge(String message) {
        return new ApiException(ApiErrorCode.CONTENT_TOO_LARGE, message);
    }
}
