package dev.pastebin.upload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.aws.SqsProperties;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.env.Environment;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The remaining-time margin covers one record's worst case, computed from the timeouts the function is
 * really configured with: its application.yml (pool wait, statement_timeout), the template's JDBC URL
 * (socketTimeout, held by infra's ProductionLimitsTest), UploadProperties' S3 timeouts and SqsProperties'
 * call timeout.
 */
class RecordTimeBudgetTest {

    /** The upload function's socketTimeout on AWS, appended to its JDBC URL by infra/template.yaml. */
    private static final Duration TEMPLATE_SOCKET_TIMEOUT = Duration.ofSeconds(3);
    /** UploadFunctionTimeout's default in infra/template.yaml. */
    private static final Duration LAMBDA_TIMEOUT = Duration.ofSeconds(60);

    @Test
    void theRemainingTimeMarginCoversTheWorstCaseOfOneRecord() {
        try (ApplicationContext context =
                ApplicationContext.builder().deduceEnvironment(false).build().start()) {
            Environment environment = context.getEnvironment();
            Duration poolWait = Duration.ofMillis(
                    environment.getRequiredProperty("datasources.default.connection-timeout", Long.class));
            Duration statementTimeout = statementTimeout(
                    environment.getRequiredProperty("datasources.default.connection-init-sql", String.class));
            UploadProperties upload = context.getBean(UploadProperties.class);
            Duration sqsCall = context.getBean(SqsProperties.class).callTimeout();

            RecordTimeBudget budget =
                    RecordTimeBudget.of(poolWait, statementTimeout, TEMPLATE_SOCKET_TIMEOUT, upload, sqsCall);

            // 5 x (2 s pool wait + 3 s socket timeout) + 2 x 5 s S3 call (the lost race) or 5 s S3 + 5 s SQS
            assertEquals(Duration.ofSeconds(35), budget.worstCase(), budget.toString());
            assertTrue(
                    upload.remainingTimeMargin().compareTo(budget.worstCase()) >= 0,
                    "margin " + upload.remainingTimeMargin() + " < worst case " + budget.worstCase() + " of " + budget);
            assertTrue(
                    upload.remainingTimeMargin().compareTo(LAMBDA_TIMEOUT) < 0,
                    "some time is left to start records in");
        }
    }

    @Test
    void eachPathAddsItsDatabaseStepsAndItsS3AndSqsCalls() {
        var upload = new UploadProperties(4, Duration.ofSeconds(15), 3, Duration.ofSeconds(5), Duration.ofSeconds(12));
        RecordTimeBudget budget = RecordTimeBudget.of(
                Duration.ofSeconds(3), Duration.ofSeconds(5), Duration.ofSeconds(4), upload, Duration.ofSeconds(7));
        // a step: 3 s pool wait + 5 s statement; the S3 call: min(12 s call, 3 x 5 s attempts); SQS: 7 s
        assertEquals(Duration.ofSeconds(4 * 8 + 12), budget.of(RecordTimeBudget.Path.STORED));
        assertEquals(Duration.ofSeconds(5 * 8 + 12 + 7), budget.of(RecordTimeBudget.Path.HELD_MISCONFIGURED));
        assertEquals(Duration.ofSeconds(3 * 8 + 2 * 7), budget.of(RecordTimeBudget.Path.HELD_OPEN));
        // a half-open socket is bounded by socketTimeout when it is the longer of the two
        assertEquals(
                Duration.ofSeconds(4 * (3 + 9) + 12),
                RecordTimeBudget.of(
                                Duration.ofSeconds(3),
                                Duration.ofSeconds(5),
                                Duration.ofSeconds(9),
                                upload,
                                Duration.ofSeconds(7))
                        .of(RecordTimeBudget.Path.STORED));
    }

    /**
     * The lost race (read the row and the breaker, elect the probe, PUT, count the probe's answer, the guarded update
     * finds the row terminal, re-read it, DELETE the object) waits on 5 database steps and 2 S3 calls.
     */
    @Test
    void theWorstCaseCoversTheLongestPathNotOnlyASuccess() {
        var upload = new UploadProperties(4, Duration.ofSeconds(15), 3, Duration.ofSeconds(5), Duration.ofSeconds(12));
        RecordTimeBudget budget = RecordTimeBudget.of(
                Duration.ofSeconds(3), Duration.ofSeconds(5), Duration.ofSeconds(4), upload, Duration.ofSeconds(7));

        Duration lostRace = Duration.ofSeconds(3 + 5)
                .multipliedBy(5)
                .plus(Duration.ofSeconds(12).multipliedBy(2));
        assertEquals(
                lostRace, budget.worstCase(), "the lost race's, the longest with a 12 s S3 call and a 7 s SQS call");
        assertEquals(RecordTimeBudget.Path.LOST_RACE, budget.longestPath());
        for (RecordTimeBudget.Path path : RecordTimeBudget.Path.values()) {
            assertTrue(budget.of(path).compareTo(budget.worstCase()) <= 0, path + " " + budget.of(path));
        }
    }

    private static Duration statementTimeout(String initSql) {
        Matcher m = Pattern.compile("statement_timeout\\s*=\\s*'(\\d+)s'").matcher(initSql);
        assertTrue(m.find(), "the connection-init-sql sets statement_timeout in seconds: " + initSql);
        return Duration.ofSeconds(Long.parseLong(m.group(1)));
    }
}
