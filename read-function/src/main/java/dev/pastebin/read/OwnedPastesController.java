package dev.pastebin.read;

import dev.pastebin.api.http.RequestCredentials;
import dev.pastebin.api.owner.ListOwnedPastesService;
import dev.pastebin.api.owner.OwnedPastesPage;
import dev.pastebin.api.owner.OwnerAccess;
import dev.pastebin.api.owner.PageRequest;
import dev.pastebin.core.access.Owner;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpHeaders;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.QueryValue;

/**
 * {@code GET /me/pastes}: the caller's own pastes, newest first, a page at a time (docs/design.md, "Ownership"). The
 * caller is whoever its credential names ({@link OwnerAccess}); the page is {@link ListOwnedPastesService}'s. Never
 * cached anywhere: the answer is one owner's. Documented in docs/openapi.yaml, which OpenApiDocumentTest holds to
 * this controller.
 */
@Controller("/me/pastes")
public class OwnedPastesController {

    private final OwnerAccess owners;
    private final ListOwnedPastesService listing;

    public OwnedPastesController(OwnerAccess owners, ListOwnedPastesService listing) {
        this.owners = owners;
        this.listing = listing;
    }

    @Get(produces = MediaType.APPLICATION_JSON)
    public HttpResponse<OwnedPastesDocument> list(
            HttpRequest<?> request, @QueryValue @Nullable String limit, @QueryValue @Nullable String after) {
        Owner owner = owners.authenticate(RequestCredentials.of(request));
        OwnedPastesPage page = listing.page(owner, PageRequest.of(limit, after));
        return HttpResponse.ok(OwnedPastesDocument.of(page)).header(HttpHeaders.CACHE_CONTROL, "no-store");
    }
}
