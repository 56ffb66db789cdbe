package dev.pastebin.privatebin;

import dev.pastebin.api.create.ClientAddress;
import dev.pastebin.api.create.CreateCredential;
import dev.pastebin.api.create.CreatePasteService;
import dev.pastebin.api.create.PasteOptions;
import dev.pastebin.api.create.PasteRequest;
import dev.pastebin.core.failure.DependencyUnavailableException;
import dev.pastebin.core.paste.ApiKeyInvalidException;
import dev.pastebin.core.paste.ApiKeyQuotaExceededException;
import dev.pastebin.core.paste.ApiKeyRequiredException;
import dev.pastebin.core.paste.ContentBlockedException;
import dev.pastebin.core.paste.PasteMetadata;
import dev.pastebin.core.paste.SignInRequiredException;
import jakarta.inject.Singleton;

/**
 * Creating a PrivateBin paste: its envelope ({@link PasteEnvelope}) is the content of an ordinary create
 * ({@link CreatePasteService}: the row IN_PROGRESS, then the upload job), with {@code meta.expire} as the paste's
 * lifetime and burn after reading as read-once. Without an Idempotency-Key (PrivateBin's clients send none); anonymous
 * unless the operator requires an API key, which then comes as any create's ({@code Authorization: Bearer}).
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
     * @throws ApiKeyRequiredException        when an API key is required and none was presented
     * @throws SignInRequiredException        when a sign-in is required and no verified subject came with it
     * @throws ApiKeyInvalidException         when the credential is no bearer token, or its key unknown or revoked
     * @throws ApiKeyQuotaExceededException   when the paste would take the key past a daily limit
     */
    Created create(EncryptedPasteRequest paste, CreateCredential credential, ClientAddress client) {
        PasteOptions options = new PasteOptions(paste.expiry().lifetimeSeconds(), paste.burnAfterReading());
        CreatePasteService.Creation creation = creates.create(
                new PasteRequest(PasteEnvelope.of(paste), options, PasteMetadata.NONE),
                CreateCredential.subjectOf(credential),
                null,
                credential,
                client);
        return new Created(creation.shortCode(), creation.deleteToken());
    }
}
