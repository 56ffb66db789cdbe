package dev.pastebin.privatebin;

import dev.pastebin.api.create.CreatePasteService;
import dev.pastebin.api.create.PasteOptions;
import dev.pastebin.api.create.PasteRequest;
import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.paste.ContentBlockedException;
import dev.pastebin.core.paste.PasteMetadata;
import jakarta.inject.Singleton;

/**
 * Creating a PrivateBin paste: its envelope ({@link PasteEnvelope}) is the content of an ordinary create
 * ({@link CreatePasteService}: the row IN_PROGRESS, then the upload job), with {@code meta.expire} as the paste's
 * lifetime and burn after reading as read-once. Anonymous and without an Idempotency-Key: PrivateBin's clients
 * send neither.
 */
@Singleton
class CreateEncryptedPasteService {

    /** What the client is told: the paste's id (this system's short code) and its deletion token. */
    record Created(String id, String deleteToken) {}

    private final CreatePasteService creates;

    CreateEncryptedPasteService(CreatePasteService creates) {
        this.creates = creates;
    }

    /**
     * @throws DependencyUnavailableException when the database or the queue cannot be reached
     * @throws ContentBlockedException        when the envelope's SHA-256 is on the operator's blocklist
     */
    Created create(EncryptedPasteRequest paste) {
        PasteOptions options = new PasteOptions(paste.expiry().lifetimeSeconds(), paste.burnAfterReading());
        CreatePasteService.Creation creation =
                creates.create(new PasteRequest(PasteEnvelope.of(paste), options, PasteMetadata.NONE), null, null);
        return new Created(creation.shortCode(), creation.deleteToken());
    }
}
