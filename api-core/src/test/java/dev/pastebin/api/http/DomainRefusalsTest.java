package dev.pastebin.api.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.paste.ApiKeyInvalidException;
import dev.pastebin.core.paste.ApiKeyQuotaExceededException;
import dev.pastebin.core.paste.ApiKeyRequiredException;
import dev.pastebin.core.paste.IdempotencyKey;
import dev.pastebin.core.paste.IdempotencyKeyExhaustedException;
import dev.pastebin.core.paste.IdempotencyKeyReusedException;
import dev.pastebin.core.paste.InvalidExpiryException;
import dev.pastebin.core.paste.InvalidFileNameException;
import dev.pastebin.core.paste.InvalidLanguageException;
import dev.pastebin.core.paste.InvalidReadOnceException;
import dev.pastebin.core.paste.MalformedShortCodeException;
import dev.pastebin.core.paste.NotReadOnceException;
import dev.pastebin.core.paste.PasteNotFoundException;
import dev.pastebin.core.paste.PasteProperties;
import dev.pastebin.core.paste.PasteRefusal;
import dev.pastebin.core.paste.ShortCodes;
import dev.pastebin.core.paste.SignInRequiredException;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The domain refuses in its own words and the HTTP layer alone says how: each refusal's code and status, and
 * the domain packages (core.paste, core.breaker, the functions' services and the create's parts and options) import
 * nothing of HTTP.
 */
class DomainRefusalsTest {

    private static final List<String> FUNCTIONS = List.of(
            "create-function",
            "read-function",
            "remove-function",
            "upload-function",
            "sweeper-function",
            "privatebin-function");

    @Test
    void eachRefusalHasItsCodeAndStatus() {
        assertEquals(ApiErrorCode.MALFORMED_SHORT_CODE, ApiErrorCode.of(new MalformedShortCodeException("m")));
        assertEquals(ApiErrorCode.PASTE_NOT_FOUND, ApiErrorCode.of(new PasteNotFoundException("m")));
        assertEquals(ApiErrorCode.NOT_READ_ONCE, ApiErrorCode.of(new NotReadOnceException("m")));
        assertEquals(ApiErrorCode.IDEMPOTENCY_KEY_REUSED, ApiErrorCode.of(new IdempotencyKeyReusedException("m")));
        assertEquals(ApiErrorCode.INVALID_EXPIRY, ApiErrorCode.of(new InvalidExpiryException("m")));
        assertEquals(ApiErrorCode.INVALID_READ_ONCE, ApiErrorCode.of(new InvalidReadOnceException("m")));
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
        assertEquals(
                400, ApiErrorCode.of(new InvalidExpiryException("m")).status().getCode());
        assertEquals(
                401, ApiErrorCode.of(new ApiKeyRequiredException("m")).status().getCode());
        assertEquals(ApiErrorCode.SIGN_IN_REQUIRED, ApiErrorCode.of(new SignInRequiredException("m")));
        assertEquals(401, ApiErrorCode.SIGN_IN_REQUIRED.status().getCode());
        assertEquals(
                ApiErrorCode.API_KEY_INVALID,
                ApiErrorCode.of(new ApiKeyInvalidException(ApiKeyInvalidException.Reason.REVOKED, "m")));
        assertEquals(
                429,
                ApiErrorCode.of(new ApiKeyQuotaExceededException("m", 60))
                        .status()
                        .getCode());
    }

    /**
     * One style of refusal: what the domain refuses is refused only as a {@link PasteRefusal}, so that its code
     * and status come from {@link ApiErrorCode#of} alone. Every refusal has a 4xx code, and no function names one
     * of those codes to throw it as an {@link ApiException} of its own, except the read function's answer to a
     * lookup that found nothing, which is no refusal (the service returns Absent) and is worded per protocol.
     */
    @Test
    void whatTheDomainRefusesIsRefusedOneWay() throws Exception {
        Set<ApiErrorCode> refusalCodes = EnumSet.noneOf(ApiErrorCode.class);
        for (Class<?> type : PasteRefusal.class.getPermittedSubclasses()) {
            ApiErrorCode code = ApiErrorCode.of(refusal(type));
            assertTrue(code.status().getCode() / 100 == 4, type + " is answered " + code.status());
            refusalCodes.add(code);
        }
        assertTrue(refusalCodes.contains(ApiErrorCode.INVALID_EXPIRY), refusalCodes.toString());
        Path repository = Path.of("..");
        Map<Path, ApiErrorCode> allowed = Map.of(
                Path.of("read-function/src/main/java/dev/pastebin/read/PasteAnswers.java"),
                ApiErrorCode.PASTE_NOT_FOUND);
        for (String module : FUNCTIONS) {
            try (Stream<Path> files = Files.walk(repository.resolve(module).resolve("src/main/java"))) {
                for (Path file :
                        files.filter(p -> p.toString().endsWith(".java")).toList()) {
                    String source = Files.readString(file);
                    for (ApiErrorCode code : refusalCodes) {
                        if (Pattern.compile("ApiErrorCode\\." + code.name() + "\\b")
                                        .matcher(source)
                                        .find()
                                && code != allowed.get(repository.relativize(file))) {
                            throw new AssertionError(file + " refuses " + code + " as an ApiException of its own; "
                                    + "throw the domain's refusal instead");
                        }
                    }
                }
            }
        }
    }

    /** One of the refusals of {@code type}: its message "m", and what else it carries (a reason, a wait) at its first. */
    private static PasteRefusal refusal(Class<?> type) throws ReflectiveOperationException {
        Constructor<?> constructor = type.getConstructors()[0];
        Object[] arguments = Arrays.stream(constructor.getParameterTypes())
                .map(parameter -> parameter == String.class
                        ? "m"
                        : parameter == long.class ? (Object) 1L : parameter.getEnumConstants()[0])
                .toArray();
        return (PasteRefusal) constructor.newInstance(arguments);
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
                        "core/src/main/java/dev/pastebin/core/delivery",
                        // the use cases the HTTP functions share: create, read, delete and reveal
                        "api-core/src/main/java/dev/pastebin/api/create",
                        "api-core/src/main/java/dev/pastebin/api/read",
                        "api-core/src/main/java/dev/pastebin/api/remove")
                .map(repository::resolve)
                .toList();
        List<Path> services = new ArrayList<>();
        for (String module :
                Stream.concat(Stream.of("core", "api-core"), FUNCTIONS.stream()).toList()) {
            try (Stream<Path> files = Files.walk(repository.resolve(module).resolve("src/main/java"))) {
                files.filter(p -> p.getFileName().toString().endsWith("Service.java"))
                        .forEach(services::add);
            }
        }
        for (Path file : Stream.concat(domain.stream().flatMap(DomainRefusalsTest::javaFiles), services.stream())
                .toList()) {
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith("import ")
                        && (line.contains("dev.pastebin.api.http.") || line.contains("io.micronaut.http."))) {
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
