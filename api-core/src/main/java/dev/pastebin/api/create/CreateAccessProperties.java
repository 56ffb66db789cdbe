package dev.pastebin.api.create;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.NotNull;

/**
 * Who may create pastes (template parameter {@code CreateAccess}; docs/operating.md, "API keys"). Bound from
 * {@code pastebin.create.*}; only the create and PrivateBin functions are given it. Reads, the web page, PrivateBin's
 * reads and deletes and reports stay anonymous in every mode.
 *
 * @param access {@code anyone} (the default: anonymous creates, no statement added to them), {@code api-key}
 *               (every create presents {@code Authorization: Bearer <key>}, checked and counted by {@link CreateAccess})
 *               or {@code oidc} (API Gateway's JWT authorizer verifies every create's token before the function runs;
 *               the function requires the verified subject it passes and records it on the paste)
 */
@ConfigurationProperties("pastebin.create")
public record CreateAccessProperties(
        @NotNull @Bindable(defaultValue = "anyone") Mode access) {

    /** The template parameter's values, {@code anyone}, {@code api-key} and {@code oidc}. */
    public enum Mode {
        ANYONE,
        API_KEY,
        OIDC
    }
}
