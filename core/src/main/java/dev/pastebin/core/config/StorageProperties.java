package dev.pastebin.core.config;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.NotBlank;

/**
 * Where paste content is stored. Bound from {@code pastebin.storage.*}, e.g. the environment variable
 * {@code PASTEBIN_STORAGE_BUCKET}. Content is read and written by
 * {@link dev.pastebin.core.storage.PasteContentStore}.
 */
@ConfigurationProperties("pastebin.storage")
public record StorageProperties(
        @NotBlank @Bindable(defaultValue = "pastebin-pastes")
        String bucket,

        @Bindable(defaultValue = "pastes/") String keyPrefix) {

    /** The object key of a paste: one object per short code, so a re-upload overwrites the same key. */
    public String objectKey(String shortCode) {
        return keyPrefix + shortCode;
    }
}
