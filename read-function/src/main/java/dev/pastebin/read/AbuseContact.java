package dev.pastebin.read;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import java.util.Optional;

/**
 * Where to report abuse (docs/operating.md, "The abuse contact"): an e-mail address or an https URL, from
 * {@code PASTEBIN_ABUSE_CONTACT} (the template's {@code AbuseContact} parameter). Every page shows it and
 * {@code /.well-known/security.txt} names it. Empty means none: the pages show no contact and security.txt answers
 * 404, rather than a placeholder address nobody reads.
 *
 * @param contact {@code abuse@example.org}, {@code mailto:abuse@example.org} or {@code https://example.org/abuse}
 */
@ConfigurationProperties("pastebin.abuse")
public record AbuseContact(
        @Nullable @Bindable(defaultValue = "") String contact) {

    /** The contact as a URI (RFC 9116's Contact field, a link's href): a bare address becomes a mailto: URI. */
    public Optional<String> uri() {
        if (contact == null || contact.isBlank()) {
            return Optional.empty();
        }
        String value = contact.strip();
        if (value.startsWith("mailto:") || value.startsWith("https://")) {
            return Optional.of(value);
        }
        if (value.matches("[^@\\s:/]+@[^@\\s:/]+")) {
            return Optional.of("mailto:" + value);
        }
        throw new IllegalStateException(
                "PASTEBIN_ABUSE_CONTACT must be an e-mail address, a mailto: URI or an https:// URL, not " + value);
    }

    /** What a page shows: the address without mailto:, or the URL. */
    public Optional<String> label() {
        return uri().map(uri -> uri.startsWith("mailto:") ? uri.substring("mailto:".length()) : uri);
    }
}
