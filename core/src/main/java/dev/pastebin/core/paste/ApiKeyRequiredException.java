package dev.pastebin.core.paste;

/** A create without an API key where the operator requires one ({@code CreateAccess=api-key}): refused (401). */
public final class ApiKeyRequiredException extends PasteRefusal {

    public ApiKeyRequiredException(String message) {
        super(message);
    }
}
