package dev.pastebin.api.owner;

import dev.pastebin.api.create.ApiKeyLookup;
import dev.pastebin.api.create.CreateCredential;
import dev.pastebin.core.access.Owner;
import dev.pastebin.core.paste.ApiKeyInvalidException;
import dev.pastebin.core.paste.ApiKeyRequiredException;
import jakarta.inject.Singleton;

/**
 * Who asks for their own pastes (docs/design.md, "Ownership"): the owner's routes ({@code GET /me/pastes},
 * {@code DELETE /me/pastes/{code}}) turn the request's credential into an {@link Owner} here, and the use cases take
 * only the owner. An API key is looked up as a create looks it up, on every request and whatever the instance's
 * {@code CreateAccess}: a revoked key lists and deletes nothing from its next request on. An OpenID Connect
 * principal ({@link Owner.Subject}) is the API Gateway authorizer's to verify; this class does not see one.
 */
@Singleton
public class OwnerAccess {

    private final ApiKeyLookup keys;

    public OwnerAccess(ApiKeyLookup keys) {
        this.keys = keys;
    }

    /**
     * @throws ApiKeyRequiredException when no credential was presented
     * @throws ApiKeyInvalidException  when the credential is no bearer token, or its key is unknown or revoked
     */
    public Owner authenticate(CreateCredential credential) {
        return new Owner.ApiKey(keys.require(
                        credential, "Your pastes are those created with your API key: send Authorization: Bearer <key>")
                .keyId());
    }
}
