package dev.pastebin.remove;

import dev.pastebin.api.http.RequestCredentials;
import dev.pastebin.api.owner.OwnerAccess;
import dev.pastebin.api.remove.DeletePasteService;
import dev.pastebin.core.paste.ShortCodes;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Delete;

/**
 * {@code DELETE /me/pastes/{shortCode}}: the owner deletes one of their pastes with their credential instead of the
 * paste's deletion token (docs/design.md, "Ownership"), through the token delete's removal ({@link DeletePasteService}).
 * Documented in docs/openapi.yaml, which OpenApiDocumentTest holds to this controller.
 */
@Controller("/me/pastes")
public class OwnedPasteController {

    private final OwnerAccess owners;
    private final DeletePasteService deletions;
    private final ShortCodes shortCodes;

    public OwnedPasteController(OwnerAccess owners, DeletePasteService deletions, ShortCodes shortCodes) {
        this.owners = owners;
        this.deletions = deletions;
        this.shortCodes = shortCodes;
    }

    @Delete("/{shortCode}")
    public HttpResponse<?> delete(String shortCode, HttpRequest<?> request) {
        shortCodes.requireWellFormed(shortCode);
        deletions.deleteOwned(shortCode, owners.authenticate(RequestCredentials.of(request)));
        return HttpResponse.noContent();
    }
}
