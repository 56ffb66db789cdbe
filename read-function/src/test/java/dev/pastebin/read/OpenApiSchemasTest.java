package dev.pastebin.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.pastebin.api.http.ApiError;
import dev.pastebin.api.http.PasteDocument;
import dev.pastebin.api.http.PendingPaste;
import dev.pastebin.create.CreatedPaste;
import dev.pastebin.create.HasteKey;
import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.yaml.snakeyaml.Yaml;

/**
 * The response schemas of the API document (docs/openapi.yaml, written by hand) describe the records the
 * functions serialize: the same fields, every one of them always present (nulls included). The shared schemas
 * are checked here because this module's tests see all ten records (core's, create's and its own).
 */
class OpenApiSchemasTest {

    private static final Path DOCUMENT = Path.of("..", "docs", "openapi.yaml");
    private static final Map<String, Class<? extends Record>> RECORDS = Map.of(
            "ApiError", ApiError.class,
            "LargePasteDocument", LargePasteDocument.class,
            "LargePasteFile", LargePasteDocument.LargePasteFile.class,
            "CreatedPaste", CreatedPaste.class,
            "PasteDocument", PasteDocument.class,
            "PendingPaste", PendingPaste.class,
            "ReadOncePaste", ReadOncePaste.class,
            "HasteKey", HasteKey.class,
            "HasteDocument", HasteDocument.class,
            "OwnedPastesPage", OwnedPastesDocument.class);

    @ParameterizedTest
    @ValueSource(
            strings = {
                "ApiError",
                "LargePasteDocument",
                "LargePasteFile",
                "CreatedPaste",
                "PasteDocument",
                "PendingPaste",
                "ReadOncePaste",
                "HasteKey",
                "HasteDocument",
                "OwnedPastesPage"
            })
    @SuppressWarnings("unchecked")
    void theSchemaHasExactlyTheRecordsFieldsAllRequired(String name) throws IOException {
        Map<String, Object> document = new Yaml().load(Files.readString(DOCUMENT));
        Map<String, Object> schema = (Map<String, Object>)
                ((Map<String, Object>) ((Map<String, Object>) document.get("components")).get("schemas")).get(name);
        Set<String> fields = Set.copyOf(Arrays.stream(RECORDS.get(name).getRecordComponents())
                .map(RecordComponent::getName)
                .toList());

        assertEquals(fields, ((Map<String, Object>) schema.get("properties")).keySet(), name + " properties");
        assertEquals(fields, Set.copyOf((List<String>) schema.get("required")), name + " required");
    }
}
