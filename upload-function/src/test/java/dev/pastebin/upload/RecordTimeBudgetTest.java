package dev.pastebin.upload;

import io.micronaut.context.ApplicationContext;
import io.micronaut.context.env.Environment;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The remaining-time margin covers one record's worst case, computed from the timeouts the function is
 * really configured with: its application.yml (pool wait, statement_timeout), the template's JDBC URL
 * (socketTimeout, held by infra's ProductionLimitsTest) and UploadProperties' S3 timeouts.
 */
class RecordTimeBudgetTest {

    /** The upload function's socketTimeout on AWS, appended to its JDBC URL by infra/template.yaml. */
    private static final Duration TEMPLATE_SOCKET_TIMEOUT = Duration.ofSeconds(3);
    /** UploadFunctionTimeout's default in infra/template.yaml. */
    private static final Duration LAMBDA_TIMEOUT = Duration.ofSeconds(30);

    @Test
    void theRemainingTimeMarginCoversTheWorstCaseOfOneRecord() {
        try (ApplicationContext context = ApplicationContext.builder().deduceEnvironment(false).build().start()) {
            Environment environment = context.getEnvironment();
            Duration poolWait = Duration.ofMillis(environment.getRequiredProperty("datasources.default.connection-timeout", Long.class));
            Duration statementTimeout = statementTimeout(environment.getRequiredProperty("datasources.default.connection-init-sql", String.class));
            UploadProperties upload = context.getBean(UploadProperties.class);

            RecordTimeBudget budget = RecordTimeBudget.of(poolWait, statementTimeout, TEMPLATE_SOCKET_TIMEOUT, upload);

            assertEquals(Duration.ofSeconds(25), budget.worstCase(), budget.toString());
            assertTrue(upload.remainingTimeMargin().compareTo(budget.worstCase()) >= 0,
                    "margin " + upload.remainingTimeMargin() + " < worst case " + budget.worstCase() + " of " + budget);
            assertTrue(upload.remainingTimeMargin().compareTo(LAMBDA_TIMEOUT) < 0, "some time is left to start records in");
        }
    }

    @Test
    void theWorstCaseAddsEveryDatabaseStepAndTheS3Call() {
        var upload = new UploadProperties(4, Duration.ofSeconds(15), 3, Duration.ofSeconds(5), Duration.ofSeconds(12));
        RecordTimeBudget budget = RecordTimeBudget.of(Duration.ofSeconds(3), Duration.ofSeconds(5), Duration.ofSeconds(4), upload);
        // 4 x (3 s pool wait + 5 s statement) + min(12 s call, 3 x 5 s attempts)
        assertEquals(Duration.ofSeconds(44), budget.worstCase());
        // a half-open socket is bounded by socketTimeout when it is the longer of the two
        assertEquals(Duration.ofSeconds(4 * (3 + 9) + 12),
                RecordTimeBudget.of(Duration.ofSeconds(3), Duration.ofSeconds(5), Duration.ofSeconds(9), upload).worstCase());
    }

    private static Duration statementTimeout(String initSql) {
        Matcher m = Pattern.compile("statement_timeout\\s*=\\s*'(\\d+)s'").matcher(initSql);
        assertTrue(m.find(), "the connection-init-sql sets statement_timeout in seconds: " + initSql);
        return Duration.ofSeconds(Long.parseLong(m.group(1)));
    }
}
