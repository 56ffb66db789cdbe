package dev.pastebin.privatebin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** How one URL is told apart: JSON API call or page, and which operation a query names. */
class ProtocolDispatchTest {

    private static final Predicate<String> IS_ID = ProtocolDispatchTest::isId;

    private static boolean isId(String id) {
        return id.matches("[0-9A-Za-z]{11}");
    }

    @Test
    void theClientsHeaderOrAnAcceptPreferringJsonIsAJsonApiCall() {
        assertTrue(JsonApiCall.detect("JSONHttpRequest", null));
        assertTrue(JsonApiCall.detect("JSONHttpRequest", "text/html"));
        assertTrue(JsonApiCall.detect(null, "application/json"));
        assertTrue(JsonApiCall.detect(null, "application/json, text/javascript, */*; q=0.01"));
        assertTrue(JsonApiCall.detect(null, "text/html;q=0.5, application/json"));
        assertFalse(JsonApiCall.detect(null, null));
        assertFalse(JsonApiCall.detect(null, "*/*"));
        assertFalse(JsonApiCall.detect("XMLHttpRequest", "*/*"));
        assertFalse(JsonApiCall.detect(null, "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"));
        assertFalse(JsonApiCall.detect(null, "application/json;q=0.5, text/html"));
        assertFalse(JsonApiCall.detect(null, "application/json;q=0.0, text/html;q=0.1"), "q=0.0: not acceptable");
    }

    /**
     * Hostile Accept values of 10 KiB and 100 KiB get the answer their readable start decides: a value without
     * comma or slash (what made the old backtracking pattern quadratic), thousands of ranges, and a JSON range
     * after the ranges that are read. Their cost is bounded by construction (RE2/J, the length and range caps;
     * infra's LinearInputRuleTest keeps java.util.regex out), not measured here.
     */
    @Test
    void hostileAcceptValuesGetTheAnswerTheirReadableStartDecides() {
        for (int size : new int[] {10 * 1024, 100 * 1024}) {
            assertFalse(JsonApiCall.detect(null, "a".repeat(size)), "no media range");
            assertFalse(JsonApiCall.detect(null, "text/html;q=0.9,".repeat(size / 16)), "only HTML");
            assertFalse(JsonApiCall.detect(null, "x/y,".repeat(size / 4) + "application/json"), "JSON past the caps");
            assertTrue(
                    JsonApiCall.detect(null, "application/json;q=0.9, text/plain;" + " ".repeat(size) + "q=1"),
                    "JSON first; the rest unread");
            assertFalse(
                    JsonApiCall.detect(null, "text/html; level=" + "1".repeat(size)), "an HTML range's long parameter");
        }
    }

    @Test
    void theQueryNamesTheOperation() {
        assertEquals(new PrivateBinQuery.Page(), PrivateBinQuery.of(null, IS_ID));
        assertEquals(new PrivateBinQuery.Page(), PrivateBinQuery.of("", IS_ID));
        assertEquals(new PrivateBinQuery.JsonLd("paste"), PrivateBinQuery.of("jsonld=paste", IS_ID));
        // pbincli and the Go client: the bare id; pbcli: pasteid=
        assertEquals(new PrivateBinQuery.Read("aB3xYz9QkLm"), PrivateBinQuery.of("aB3xYz9QkLm", IS_ID));
        assertEquals(new PrivateBinQuery.Read("aB3xYz9QkLm"), PrivateBinQuery.of("aB3xYz9QkLm=", IS_ID));
        assertEquals(new PrivateBinQuery.Read("aB3xYz9QkLm"), PrivateBinQuery.of("pasteid=aB3xYz9QkLm", IS_ID));
        assertEquals(
                new PrivateBinQuery.Delete("aB3xYz9QkLm", "tok-en_1"),
                PrivateBinQuery.of("pasteid=aB3xYz9QkLm&deletetoken=tok-en_1", IS_ID));
        assertEquals(
                new PrivateBinQuery.Delete("aB3xYz9QkLm", "a b"),
                PrivateBinQuery.of("pasteid=aB3xYz9QkLm&deletetoken=a+b", IS_ID));
        // a query naming no id is a read of an invalid one, as PrivateBin reads it
        assertEquals(new PrivateBinQuery.Read(""), PrivateBinQuery.of("not-an-id!", IS_ID));
        assertEquals(new PrivateBinQuery.Read(""), PrivateBinQuery.of("x=1", IS_ID));
        assertEquals(new PrivateBinQuery.Read("bad"), PrivateBinQuery.of("pasteid=bad", IS_ID));
        assertEquals(new PrivateBinQuery.Page(), PrivateBinQuery.of("pasteid=%zz", IS_ID));
        assertEquals(new PrivateBinQuery.Page(), PrivateBinQuery.of("pasteid=", IS_ID));
        assertEquals(new PrivateBinQuery.Page(), PrivateBinQuery.of("link=https://example.org/", IS_ID));
    }
}
