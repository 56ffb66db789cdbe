package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.api.support.HttpApi;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The abuse contact through the read function's real handler: on every page, and in /.well-known/security.txt
 * (RFC 9116); without one (WebPagesTest's context), neither. The database is a closed port: none of this needs it.
 */
class AbuseContactTest {

    private static HttpApi api;
    private static HttpApi withoutContact;

    @BeforeAll
    static void start() {
        Map<String, Object> noDatabase = Map.of(
                "datasources.default.url",
                "jdbc:postgresql://127.0.0.1:1/pastebin",
                "datasources.default.connection-timeout",
                250,
                "flyway.datasources.default.enabled",
                false);
        Map<String, Object> withContact = new HashMap<>(noDatabase);
        withContact.put("pastebin.abuse.contact", "abuse+pastes@example.org");
        api = HttpApi.start(withContact);
        withoutContact = HttpApi.start(noDatabase);
    }

    @AfterAll
    static void stop() {
        for (HttpApi each : new HttpApi[] {api, withoutContact}) {
            if (each != null) {
                each.close();
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"/", "/p/aB3xYz9QkLm"})
    void everyPageShowsTheContact(String path) {
        String html = api.send(api.fixture("read-paste").path(path)).text();

        assertTrue(
                html.contains("Report abuse to <a id=\"abuse-contact\" href=\"mailto:abuse+pastes@example.org\">"
                        + "abuse+pastes@example.org</a>."),
                html);
    }

    @Test
    void withoutAContactPagesShowNoneAndSecurityTxtIsNotFound() {
        String html = withoutContact
                .send(withoutContact.fixture("read-paste").path("/"))
                .text();
        HttpApi.Response securityTxt =
                withoutContact.send(withoutContact.fixture("read-paste").path("/.well-known/security.txt"));

        assertTrue(html.contains("<footer class=\"footer\" id=\"footer\"></footer>"), html);
        assertFalse(html.contains("abuse contact"), "the slot is gone, not left as a comment");
        assertEquals(404, securityTxt.status(), securityTxt.text());
    }

    @Test
    void securityTxtNamesTheContactAndExpiresWithinAYear() {
        HttpApi.Response answer = api.send(
                api.fixture("read-paste").path("/.well-known/security.txt").header("Accept", "text/plain"));

        assertEquals(200, answer.status(), answer.text());
        assertEquals("text/plain; charset=utf-8", answer.header("Content-Type"));
        String text = answer.text();
        assertTrue(text.startsWith("Contact: mailto:abuse+pastes@example.org\n"), text);
        Matcher expires = Pattern.compile("(?m)^Expires: (\\S+)$").matcher(text);
        assertTrue(expires.find(), text);
        Instant expiry = Instant.parse(expires.group(1));
        assertTrue(expiry.isAfter(Instant.now()), text);
        assertTrue(expiry.isBefore(Instant.now().plus(365, ChronoUnit.DAYS)), "RFC 9116: less than a year: " + text);
        assertTrue(text.contains("Preferred-Languages: en\n"), text);
        assertTrue(
                text.contains(
                        "Canonical: https://abc123.execute-api.us-east-1.amazonaws.com/.well-known/security.txt\n"),
                text);
    }

    @Test
    void theContactMayBeAMailtoUriOrAnHttpsAddressAndNothingElse() {
        assertEquals(Optional.of("mailto:a@b.org"), new AbuseContact("a@b.org").uri());
        assertEquals(Optional.of("mailto:a@b.org"), new AbuseContact(" mailto:a@b.org ").uri());
        assertEquals(Optional.of("https://example.org/abuse"), new AbuseContact("https://example.org/abuse").uri());
        assertEquals(Optional.empty(), new AbuseContact("").uri());
        assertEquals(Optional.empty(), new AbuseContact(null).uri());
        assertThrows(IllegalStateException.class, () -> new AbuseContact("http://example.org").uri());
        assertThrows(IllegalStateException.class, () -> new AbuseContact("javascript:alert(1)").uri());
    }

    @Test
    void theContactIsEscapedOnThePage() {
        assertEquals(
                "Report abuse to <a id=\"abuse-contact\" href=\"https://example.org/?a=1&amp;b=&quot;x&quot;\">"
                        + "https://example.org/?a=1&amp;b=&quot;x&quot;</a>.",
                WebAssets.abuseContactHtml(new AbuseContact("https://example.org/?a=1&b=\"x\"")));
    }
}
