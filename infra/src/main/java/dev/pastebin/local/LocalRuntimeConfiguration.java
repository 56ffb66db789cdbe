package dev.pastebin.local;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.core.bind.annotation.Bindable;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Settings of the local runtime, bound from {@code pastebin.local.*} (environment: {@code PASTEBIN_LOCAL_PORT},
 * ...; command line: see {@link CommandLineFlags}).
 *
 * @param root             the repository root; relative paths below are resolved against it
 * @param template         the SAM template that says which functions exist and how they are triggered
 * @param ricLib           the Lambda runtime interface client and its dependencies (built into infra/target)
 * @param workDir          scratch space for unpacked function.zip artifacts
 * @param instances        execution environments per function (Lambda runs one invocation per environment)
 * @param eager            start each function's first environment at startup instead of on first use
 * @param scheduleInterval when set, every Schedule event fires at this interval instead of its rate
 * @param accountId        the account id written into ARNs and events (LocalStack's default account)
 * @param javaHome         the JDK the function JVMs run on (Lambda's runtime is java21); default: this JVM's
 */
@ConfigurationProperties("pastebin.local")
public record LocalRuntimeConfiguration(
        @NotBlank @Bindable(defaultValue = "127.0.0.1") String host,
        @Min(0) @Max(65535) @Bindable(defaultValue = "3000") int port,
        @NotBlank @Bindable(defaultValue = ".") String root,
        @NotBlank @Bindable(defaultValue = "infra/template.yaml") String template,
        @NotBlank @Bindable(defaultValue = "infra/target/ric-lib") String ricLib,
        @NotBlank @Bindable(defaultValue = ".tools/local-runtime") String workDir,
        @Min(1) @Max(8) @Bindable(defaultValue = "1") int instances,
        @Bindable(defaultValue = "true") boolean eager,
        @Nullable Duration scheduleInterval,
        @NotBlank @Bindable(defaultValue = "000000000000") String accountId,
        @Nullable String javaHome) {

    Path resolve(String path) {
        return Path.of(root).toAbsolutePath().resolve(path).normalize();
    }
}
