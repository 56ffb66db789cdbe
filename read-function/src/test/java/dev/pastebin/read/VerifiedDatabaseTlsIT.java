package dev.pastebin.read;

import dev.pastebin.core.support.FunctionDatabaseTls;
import org.junit.jupiter.api.Test;

/** The read function's own context reaches a TLS PostgreSQL with the template's sslmode=verify-full (core's DatabaseTlsIT covers refusals). */
class VerifiedDatabaseTlsIT {

    @Test
    void thePoolConnectsWithVerifyFullAndTheChosenTrustAnchor() throws Exception {
        FunctionDatabaseTls.assertThePoolConnectsWithVerifyFull();
    }
}
