package dev.pastebin.core.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.config.PasteProperties;
import dev.pastebin.core.paste.IdempotencyKey;
import dev.pastebin.core.paste.IdempotencyKeyExhaustedException;
import dev.pastebin.core.paste.IdempotencyKeyReusedException;
import dev.pastebin.core.paste.InvalidFileNameException;
import dev.pastebin.core.paste.InvalidLanguageException;
import dev.pastebin.core.paste.MalformedShortCodeException;
import dev.pastebin.core.paste.NotReadOnceException;
import dev.pastebin.core.paste.PasteNotFoundException;
import dev.pastebin.core.paste.PasteRefusal;
import dev.pastebin.core.paste.ShortCodes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The domain refuses in its own words and the HTTP layer alone says how: each refusal's code and status, and
 * the domain packages (core.paste, core.breaker, the functions' services) import nothing of HTTP.
 */
class DomainRefusalsTest {

    @Test
    void eachRefusalHasItsCodeAndStatus() {
        assertEquals(ApiErrorCode.MALFORMED_SHORT_CODE, ApiErrorCode.of(new MalformedShortCodeException("m")));
        assertEquals(ApiErrorCode.PASTE_NOT_FOUND, ApiErrorCode.of(new PasteNotFoundException("m")));
        assertEquals(ApiErrorCode.NOT_READ_ONCE, ApiErrorCode.of(new NotReadOnceException("m")));
        assertEquals(ApiErrorCode.IDEMPOTENCY_KEY_REUSED, ApiErrorCode.of(new IdempotencyKeyReusedException("m")));
        assertEquals(ApiErrorCode.INVALID_LANGUAGE, ApiErrorCode.of(new InvalidLanguageException("m")));
        assertEquals(ApiErrorCode.INVALID_FILE_NAME, ApiErrorCode.of(new InvalidFileNameException("m")));
        assertEquals(
                400,
                ApiErrorCode.of(new MalformedShortCodeException("m")).status().getCode());
        assertEquals(
                404, ApiErrorCode.of(new PasteNotFoundException("m")).status().getCode());
        assertEquals(
                409, ApiErrorCode.of(new NotReadOnceException("m")).status().getCode());
        assertEquals(
                422,
                ApiErrorCode.of(new IdempotencyKeyReusedException("m")).status().getCode());
        assertEquals(
                409,
                ApiErrorCode.of(new IdempotencyKeyExhaustedException("m"))
                        .status()
                        .getCode());
    }

    @Test
    void malformedInputIsRefusedByTheDomain() {
        PasteRefusal code = assertThrows(
                MalformedShortCodeException.class,
                () -> new ShortCodes(new PasteProperties(11, 1024)).requireWellFormed("not-a-code!"));
        assertEquals(ApiErrorCode.MALFORMED_SHORT_CODE, ApiErrorCode.of(code));
        PasteRefusal key = assertThrows(PasteRefusal.class, () -> IdempotencyKey.of("has space", null));
        assertEquals(ApiErrorCode.INVALID_IDEMPOTENCY_KEY, ApiErrorCode.of(key));
    }

    @Test
    void theDomainImportsNothingOfHttp() throws IOException {
        Path repository = Path.of("..");
        List<Path> domain = Stream.of(
                        "core/src/main/java/dev/pastebin/core/paste",
                        "core/src/main/java/dev/pastebin/core/breaker",
                        "core/src/main/java/dev/pastebin/core/storage",
                        "core/src/main/java/dev/pastebin/core/retry")
                .map(repository::resolve)
                .toList();
        List<Path> services = new ArrayList<>();
        for (String module : List.of(
                "core", "create-function", "read-function", "remove-function", "upload-function", "sweeper-function")) {
            try (Stream<Path> files = Files.walk(repository.resolve(module).resolve("src/main/java"))) {
                files.filter(p -> p.getFileName().toString().endsWith("Service.java"))
                        .forEach(services::add);
            }
        }
        for (Path file : Stream.concat(domain.stream().flatMap(DomainRefusalsTest::javaFiles), services.stream())
                .toList()) {
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith("import ")
                        && (line.contains("dev.pastebin.core.http.") || line.contains("io.micronaut.http."))) {
                    throw new AssertionError(file + " is domain code but imports HTTP: " + line);
                }
            }
        }
        assertTrue(services.size() >= 5, "the functions' services were found: " + services);
    }

    private static Stream<Path> javaFiles(Path directory) {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(p -> p.toString().endsWith(".java")).toList().stream();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
