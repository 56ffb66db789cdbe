package dev.pastebin.privatebin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * adata comes back exactly as it was sent, whatever its shape: nested arrays, integers, decimals and exponents,
 * strings with escapes and non-ASCII text, any spacing, anywhere among the other members.
 */
class JsonMembersTest {

    @Property(tries = 500)
    void anArrayMemberIsItsExactBytes(
            @ForAll("values") String adata,
            @ForAll("values") String other,
            @ForAll("spacing") String s1,
            @ForAll("spacing") String s2,
            @ForAll("spacing") String s3,
            @ForAll boolean adataFirst) {
        String array = "[" + s1 + adata + s2 + "," + s3 + other + "]";
        String adataMember = "\"adata\"" + s1 + ":" + s2 + array;
        String otherMember = "\"ct\"" + s3 + ":" + s1 + other;
        String document = s2 + "{" + s1
                + (adataFirst ? adataMember + "," + otherMember : otherMember + "," + adataMember) + s3 + "}" + s1;
        byte[] bytes = document.getBytes(StandardCharsets.UTF_8);

        JsonMembers members = JsonMembers.of(bytes).orElseThrow(() -> new AssertionError("refused: " + document));

        assertArrayEquals(
                array.getBytes(StandardCharsets.UTF_8),
                members.structure("adata").orElseThrow(),
                () -> "in " + document);
        assertEquals(Set.of("adata", "ct"), members.names());
    }

    @Property(tries = 200)
    void aKeyTwiceOrAnythingAfterTheObjectIsRefused(@ForAll("values") String value, @ForAll("spacing") String s) {
        byte[] twice = ("{\"adata\":[" + value + "]," + s + "\"adata\":[1]}").getBytes(StandardCharsets.UTF_8);
        byte[] trailing = ("{\"adata\":[" + value + "]}" + s + "{}").getBytes(StandardCharsets.UTF_8);
        byte[] array = ("[" + value + "]").getBytes(StandardCharsets.UTF_8);

        assertTrue(JsonMembers.of(twice).isEmpty());
        assertTrue(JsonMembers.of(trailing).isEmpty());
        assertTrue(JsonMembers.of(array).isEmpty(), "only an object is a body");
    }

    @Test
    void aScalarMemberHasNoStructure() {
        JsonMembers members = JsonMembers.of(
                        "{\"v\": 2, \"ct\": \"abc\", \"adata\": []}".getBytes(StandardCharsets.UTF_8))
                .orElseThrow();

        assertTrue(members.structure("v").isEmpty());
        assertTrue(members.structure("ct").isEmpty());
        assertTrue(members.structure("missing").isEmpty());
        assertArrayEquals(
                "[]".getBytes(StandardCharsets.UTF_8),
                members.structure("adata").orElseThrow());
    }

    @Test
    void notJsonIsRefused() {
        for (String body : List.of("", "{", "{\"a\":}", "{\"a\":1,}", "nul", "{\"a\":[1,2}", "{'a':1}")) {
            assertTrue(JsonMembers.of(body.getBytes(StandardCharsets.UTF_8)).isEmpty(), body);
        }
    }

    @Provide
    Arbitrary<String> spacing() {
        return Arbitraries.of(" ", "\t", "\n", "\r\n", "  ").list().ofMaxSize(3).map(l -> String.join("", l));
    }

    /** Any JSON value, as text a client might write, nested up to four levels. */
    @Provide
    Arbitrary<String> values() {
        return value(4);
    }

    private Arbitrary<String> value(int depth) {
        Arbitrary<String> scalars =
                Arbitraries.oneOf(integers(), decimals(), strings(), Arbitraries.of("true", "false", "null"));
        if (depth == 0) {
            return scalars;
        }
        Arbitrary<String> arrays = Combinators.combine(
                        Arbitraries.lazy(() -> value(depth - 1)).list().ofMaxSize(4), spacing())
                .as((items, space) -> "[" + space + String.join("," + space, items) + space + "]");
        Arbitrary<String> objects = Combinators.combine(
                        // keys unique as decoded too, or the document names a key twice
                        Arbitraries.strings()
                                .alpha()
                                .ofMinLength(1)
                                .ofMaxLength(5)
                                .map(k -> "\"" + k + "\"")
                                .list()
                                .uniqueElements()
                                .ofMaxSize(3),
                        Arbitraries.lazy(() -> value(depth - 1)).list().ofSize(3),
                        spacing())
                .as((keys, values, space) -> {
                    List<String> members = new ArrayList<>();
                    for (int i = 0; i < keys.size(); i++) {
                        members.add(keys.get(i) + space + ":" + values.get(i));
                    }
                    return "{" + String.join("," + space, members) + "}";
                });
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, scalars),
                net.jqwik.api.Tuple.of(2, arrays),
                net.jqwik.api.Tuple.of(1, objects));
    }

    private static Arbitrary<String> integers() {
        return Arbitraries.oneOf(
                Arbitraries.longs().map(Object::toString),
                Arbitraries.of("0", "-0", "100000", "256", "128", "12345678901234567890123"));
    }

    /** Numbers a JSON model would likely rewrite: 1e5, 100000.0, 1.50, -0.0, 1E+2. */
    private static Arbitrary<String> decimals() {
        return Arbitraries.oneOf(
                Arbitraries.doubles().map(Object::toString),
                Arbitraries.of("1e5", "100000.0", "1.50", "-0.0", "1E+2", "2.5e-3", "0.1000"));
    }

    /** Strings with escapes (quotes, backslashes, \\u escapes, \\/) and non-ASCII text. */
    private static Arbitrary<String> strings() {
        Arbitrary<String> piece = Arbitraries.oneOf(
                Arbitraries.strings().alpha().numeric().ofMaxLength(6),
                Arbitraries.of(
                        "\\\"",
                        "\\\\",
                        "\\/",
                        "\\n",
                        "\\t",
                        "\\u0041",
                        "\\u00e9",
                        "\\ud83d\\ude00",
                        "é",
                        "世界",
                        "✓",
                        "😀",
                        "aes",
                        "gcm",
                        "+/="));
        return piece.list().ofMaxSize(5).map(parts -> "\"" + String.join("", parts) + "\"");
    }
}
