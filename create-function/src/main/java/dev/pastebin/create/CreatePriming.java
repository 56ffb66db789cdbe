package dev.pastebin.create;

import dev.pastebin.core.priming.PrimingRequest;
import io.micronaut.context.annotation.Factory;
import jakarta.inject.Singleton;

import java.util.Map;

/**
 * What create primes with (core.priming): an empty paste, refused by validation with 400 before anything
 * is stored or queued. The SQS client and the database connection are primed by core's primers.
 */
@Factory
class CreatePriming {

    @Singleton
    PrimingRequest emptyPaste() {
        return new PrimingRequest("POST", "/pastes", Map.of("content-type", "text/plain; charset=utf-8"), "", 400);
    }
}
