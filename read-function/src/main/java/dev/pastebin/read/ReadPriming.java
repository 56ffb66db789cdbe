package dev.pastebin.read;

import dev.pastebin.api.priming.PrimingRequest;
import dev.pastebin.core.paste.PasteProperties;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * What read primes with (core.priming): a read of a well-formed code that no paste has (codes come from
 * SecureRandom, so a real paste holding it is a one-in-62^11 chance, and reading it would change nothing
 * either): the SELECT path and the 404 answer. The S3 client is primed by core's primer.
 */
@Factory
class ReadPriming {

    @Singleton
    PrimingRequest unknownPaste(PasteProperties paste) {
        return new PrimingRequest(
                "GET", "/pastes/" + "0".repeat(paste.shortCodeLength()), Map.of("accept", "text/plain"), null, 404);
    }
}
