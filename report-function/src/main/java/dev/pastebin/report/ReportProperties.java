package dev.pastebin.report;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;

/**
 * The report route's limits, bound from {@code pastebin.report.*} (docs/operating.md, "Abuse reports").
 *
 * @param maxTextLength    characters of free text a report may carry
 * @param maxContactLength characters of the reporter's contact (an e-mail address is at most 254)
 * @param maxBodyBytes     bytes of a report's body, whatever its form; more is refused before it is parsed
 * @param notifyInterval   a paste's reports ask the operator to be notified at most once per this interval
 * @param notifyBudget     notifications of reported pastes per UTC hour, all reporters together; past it reports
 *                         are stored only, one notice says the budget is spent, and a digest later counts them
 * @param notifyPerReporter notifications one reporter's reports (one {@code reporter_hash}) may ask for per UTC
 *                         hour; past it that reporter's reports are stored only
 * @param addressKeySecretId the Secrets Manager secret (ARN or name) whose value is the HMAC key the reporter's
 *                         address is hashed with ({@link ReporterAddresses}); the template generates one per stack. No
 *                         default: the key is read from Secrets Manager at start, never taken from the configuration,
 *                         which {@code lambda:GetFunctionConfiguration} shows (locally, infra/local/bootstrap.py creates
 *                         the secret in LocalStack)
 */
@ConfigurationProperties("pastebin.report")
public record ReportProperties(
        @Min(1) @Max(2000) @Bindable(defaultValue = "2000") int maxTextLength,
        @Min(1) @Max(320) @Bindable(defaultValue = "320") int maxContactLength,
        @Min(1024) @Bindable(defaultValue = "16384") int maxBodyBytes,
        @NotNull @Bindable(defaultValue = "1h") Duration notifyInterval,
        @Min(0) @Bindable(defaultValue = "20") int notifyBudget,
        @Min(1) @Bindable(defaultValue = "3") int notifyPerReporter,

        @NotBlank String addressKeySecretId) {}
