package dev.pastebin.benchmarks.baseline;

/**
 * The same environment the functions read (docs/operating.md, "Configuration"), read directly: the baseline has no
 * configuration framework on purpose, so {@code System.getenv} is the floor being measured.
 */
record BaselineConfig(
        String jdbcUrl,
        String jdbcUser,
        String jdbcPassword,
        String bucket,
        String keyPrefix,
        String queueUrl,
        boolean s3PathStyle,
        int maxContentBytes,
        int shortCodeLength,
        boolean lazyInit,
        boolean prime,
        boolean primeSuccessPath) {

    static BaselineConfig fromEnvironment() {
        return new BaselineConfig(
                env("DATASOURCES_DEFAULT_URL", "jdbc:postgresql://127.0.0.1:5432/pastebin"),
                env("DATASOURCES_DEFAULT_USERNAME", "pastebin"),
                env("DATASOURCES_DEFAULT_PASSWORD", "pastebin"),
                env("PASTEBIN_STORAGE_BUCKET", "pastebin-pastes"),
                env("PASTEBIN_STORAGE_KEY_PREFIX", "pastes/"),
                env("PASTEBIN_UPLOAD_QUEUE_URL", "http://localhost:4566/000000000000/pastebin-uploads"),
                Boolean.parseBoolean(env("AWS_S3_PATH_STYLE_ACCESS_ENABLED", "false")),
                Integer.parseInt(env("PASTEBIN_PASTE_MAX_CONTENT_BYTES", "786240")),
                Integer.parseInt(env("PASTEBIN_PASTE_SHORT_CODE_LENGTH", "8")),
                // Knob for the benchmark only: build the connection and clients on first use instead of at init.
                Boolean.parseBoolean(env("BASELINE_LAZY_INIT", "false")),
                // Knob: warm up at Init by hand (what SnapStart restores), as the project's primers do when the
                // benchmarks run them at Init.
                Boolean.parseBoolean(env("BASELINE_PRIME_AT_INIT", "false")),
                // Knob: prime as deeply as the project's primers do (the success paths too), not only as the issue
                // first named it (SELECT 1, one metadata call, one validation-only request).
                Boolean.parseBoolean(env("BASELINE_PRIME_SUCCESS_PATH", "false")));
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
