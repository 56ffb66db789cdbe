package dev.pastebin.migrate;

import io.micronaut.context.annotation.ConfigurationProperties;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;

/**
 * How the migration function paces itself. Bound from {@code pastebin.migration.*}, e.g.
 * {@code PASTEBIN_MIGRATION_DEADLINE_MARGIN=45s}. The default (30 s) is in application.yml, not a {@code @Bindable}
 * default: Micronaut falls back to that silently when the value given is not a duration.
 *
 * @param deadlineMargin the run is closed with FAILED when less than this is left before the Lambda deadline:
 *                       enough to abort the open connections (PostgreSQL then rolls the migration back) and to
 *                       answer CloudFormation, which otherwise waits an hour for an answer that never comes
 */
@ConfigurationProperties("pastebin.migration")
public record MigrationProperties(@NotNull Duration deadlineMargin) {}
