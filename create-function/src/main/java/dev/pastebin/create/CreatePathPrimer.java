package dev.pastebin.create;

import dev.pastebin.core.paste.PasteMetadata;
import dev.pastebin.core.paste.PasteStatus;
import dev.pastebin.core.priming.Primer;
import io.micronaut.json.JsonMapper;
import jakarta.inject.Singleton;

import java.nio.charset.StandardCharsets;

/**
 * Primes the part of a create that {@link CreatePriming}'s refused request never reaches (core.priming): the
 * success path rehearsed without its effects ({@link CreatePasteService#rehearse}: no row, no message) and
 * the JSON of a 201 body.
 */
@Singleton
class CreatePathPrimer implements Primer {

    private static final byte[] CONTENT = "priming".getBytes(StandardCharsets.UTF_8);

    private final CreatePasteService service;
    private final JsonMapper json;

    CreatePathPrimer(CreatePasteService service, JsonMapper json) {
        this.service = service;
        this.json = json;
    }

    @Override
    public String name() {
        return "create's success path (INSERT rolled back, SendMessage refused, 201 body)";
    }

    @Override
    public void prime() throws Exception {
        service.rehearse(new PasteRequest(CONTENT, PasteOptions.NONE, PasteMetadata.NONE));
        json.writeValueAsBytes(new CreatedPaste("priming0", PasteStatus.IN_PROGRESS.name(),
                "https://priming.invalid/pastes/priming0", "priming", null, false));
    }
}
