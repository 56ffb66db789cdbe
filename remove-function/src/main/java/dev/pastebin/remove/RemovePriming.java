package dev.pastebin.remove;

import dev.pastebin.api.priming.PrimingRequest;
import dev.pastebin.core.paste.PasteProperties;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * What remove primes with (core.priming): a DELETE of a well-formed code that no paste has, with a token no
 * paste was given. It runs the token check and the guarded DELETE (which removes nothing) to the 404 answer.
 */
@Factory
class RemovePriming {

    @Singleton
    PrimingRequest deleteOfAnUnknownPaste(PasteProperties paste) {
        return new PrimingRequest(
                "DELETE",
                "/pastes/" + "0".repeat(paste.shortCodeLength()),
                Map.of(RemovePasteController.DELETE_TOKEN_HEADER, "priming-token-of-no-paste"),
                null,
                404);
    }
}
