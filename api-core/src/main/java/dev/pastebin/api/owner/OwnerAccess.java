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
 * only the owner. A subject API Gateway's JWT authorizer verified ({@code CreateAccess=oidc}, where the template puts
 * the authorizer on these routes too) is that principal. An API key is looked up as a create looks it up, on every
 * request: a revoked key lists and deletes nothing from its next request on.
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
        if (credential instanceof CreateCredential.Verified verified) {
            return new Owner.Subject(verified.subject());
        }
        return new Owner.ApiKey(keys.require(
                        credential, "Your pastes are those created with your API key: send Authorization: Bearer <key>")
                .keyId());
    }
}
