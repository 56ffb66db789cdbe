package dev.pastebin.infra.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's moderation commands never guess their target and say how they ended: {@code infra/admin} without
 * {@code --stack} or {@code --local} refuses to run, names the target it acts on, and exits non-zero when the
 * function refused the command or failed. The stack's side runs against a fake {@code aws} (AdminVerifyTest's).
 */
class AdminCommandsTest {

    private static final Path ROOT =
            Path.of(System.getProperty("pastebin.root", "..")).toAbsolutePath().normalize();
    private static final String FUNCTION = "pastebin-ModerationFunction-Q2w3E4r5T6y7";

    @TempDir
    Path work;

    private Path answers;

    private record Run(int exitCode, String stdout, String stderr) {}

    @BeforeEach
    void fakeAws() throws IOException {
        answers = Files.createDirectories(work.resolve("answers"));
        Path bin = Files.createDirectories(work.resolve("bin"));
        Path aws = Files.copy(ROOT.resolve("infra/src/test/resources/verify/fake-aws"), bin.resolve("aws"));
        assertTrue(aws.toFile().setExecutable(true));
        // the CLI's text output of the queries infra/admin makes
        Files.writeString(answers.resolve("cloudformation.describe-stacks.json"), FUNCTION + "\n");
        Files.writeString(answers.resolve("sts.get-caller-identity.json"), "arn:aws:iam::123456789012:user/op\n");
        Files.writeString(answers.resolve("lambda.invoke.json"), "{\"StatusCode\": 200, \"ExecutedVersion\": \"7\"}");
    }

    @Test
    void withoutAStackOrLocalNothingRunsAndTheOperatorIsAskedWhich() throws Exception {
        Run run = admin(List.of("takedown", "aB3xYz9QkLm", "--reason", "test"));

        assertEquals(2, run.exitCode(), run.stderr());
        assertTrue(run.stderr().contains("Say --stack NAME (or PASTEBIN_STACK)"), run.stderr());
        assertFalse(Files.exists(answers.resolve("calls.log")), "no AWS call was made");
    }

    @Test
    void aCommandNamesItsTargetAndPrintsTheAnswer() throws Exception {
        answer("{\"outcome\":\"taken-down\",\"code\":\"aB3xYz9QkLm\"}");

        Run run = admin(List.of("--stack", "pastebin", "takedown", "aB3xYz9QkLm", "--reason", "test"));

        assertEquals(0, run.exitCode(), run.stderr());
        assertTrue(run.stderr().contains("target: stack pastebin, function " + FUNCTION), run.stderr());
        assertTrue(run.stdout().contains("\"outcome\":\"taken-down\""), run.stdout());
        assertTrue(
                Files.readString(answers.resolve("calls.log")).contains("\"--function-name\", \"" + FUNCTION + "\""));
    }

    @Test
    void aRefusedCommandExitsNonZero() throws Exception {
        answer("{\"outcome\":\"refused\",\"message\":\"takedown needs a code\"}");

        Run run = admin(List.of("--stack", "pastebin", "takedown", "aB3xYz9QkLm", "--reason", "test"));

        assertEquals(1, run.exitCode(), run.stderr());
        assertTrue(run.stdout().contains("takedown needs a code"), run.stdout());
        assertTrue(run.stderr().contains("refused"), run.stderr());
    }

    @Test
    void aFunctionErrorExitsNonZero() throws Exception {
        answer("{\"errorMessage\":\"boom\",\"errorType\":\"java.lang.IllegalStateException\"}");
        Files.writeString(
                answers.resolve("lambda.invoke.json"),
                "{\"StatusCode\": 200, \"FunctionError\": \"Unhandled\", \"ExecutedVersion\": \"7\"}");

        Run run = admin(List.of("--stack", "pastebin", "block", "0".repeat(64), "--reason", "test"));

        assertEquals(1, run.exitCode(), run.stderr());
        assertTrue(run.stdout().contains("boom"), run.stdout());
        assertTrue(run.stderr().contains("the moderation function failed"), run.stderr());
    }

    @Test
    void aTakedownOfThisCodeAloneAndCopiesByCodeOrHashSendTheirCommand() throws Exception {
        answer("{\"outcome\":\"taken-down\",\"code\":\"aB3xYz9QkLm\",\"copiesLeft\":[\"cD4eFg5HiJk\"]}");

        Run takedown = admin(
                List.of("--stack", "pastebin", "takedown", "aB3xYz9QkLm", "--reason", "test", "--only-this-code"));

        assertEquals(0, takedown.exitCode(), takedown.stderr());
        assertEquals(
                "{\"action\": \"takedown\", \"code\": \"aB3xYz9QkLm\", \"block\": true, \"onlyThisCode\": true,"
                        + " \"reason\": \"test\", \"requestedBy\": \"arn:aws:iam::123456789012:user/op\"}",
                Files.readString(answers.resolve("lambda.invoke.event.json")).strip());

        answer("{\"outcome\":\"copies\",\"copies\":[\"aB3xYz9QkLm\"]}");
        Run byCode = admin(List.of("--stack", "pastebin", "copies", "aB3xYz9QkLm"));
        assertEquals(0, byCode.exitCode(), byCode.stderr());
        assertEquals(
                "{\"action\": \"copies\", \"code\": \"aB3xYz9QkLm\"}",
                Files.readString(answers.resolve("lambda.invoke.event.json")).strip());
        Run byHash = admin(List.of("--stack", "pastebin", "copies", "A".repeat(64)));
        assertEquals(0, byHash.exitCode(), byHash.stderr());
        assertEquals(
                "{\"action\": \"copies\", \"sha256\": \"" + "A".repeat(64) + "\"}",
                Files.readString(answers.resolve("lambda.invoke.event.json")).strip());
    }

    /**
     * The blocklist is listed a page at a time: {@code --after} and {@code --limit} go to the function as they are,
     * and an answer with a cursor ends with the command that lists the next page.
     */
    @Test
    void theBlocklistIsListedAPageAtATimeAndTheNextPagesCommandIsPrinted() throws Exception {
        String last = "a".repeat(64);
        answer("{\"outcome\":\"listed\",\"entries\":[],\"nextAfter\":\"" + last + "\"}");

        Run first = admin(List.of("--stack", "pastebin", "blocklist", "--limit", "2"));

        assertEquals(0, first.exitCode(), first.stderr());
        assertEquals(
                "{\"action\": \"blocklist\", \"limit\": 2}",
                Files.readString(answers.resolve("lambda.invoke.event.json")).strip());
        assertTrue(
                first.stderr()
                        .contains("next page: infra/admin --stack pastebin blocklist --after " + last + " --limit 2"),
                first.stderr());

        answer("{\"outcome\":\"listed\",\"entries\":[]}");
        Run next = admin(List.of("--stack", "pastebin", "blocklist", "--after", last, "--limit", "2"));

        assertEquals(0, next.exitCode(), next.stderr());
        assertEquals(
                "{\"action\": \"blocklist\", \"after\": \"" + last + "\", \"limit\": 2}",
                Files.readString(answers.resolve("lambda.invoke.event.json")).strip());
        assertTrue(next.stderr().contains("last page"), next.stderr());

        assertEquals(
                2,
                admin(List.of("--stack", "pastebin", "blocklist", "--limit", "many"))
                        .exitCode());
        assertEquals(
                2, admin(List.of("--stack", "pastebin", "blocklist", "extra")).exitCode());
    }

    @Test
    void theUsageNamesCopiesAndOnlyThisCodeIsATakedownsOption() throws Exception {
        Run misuse =
                admin(List.of("--stack", "pastebin", "block", "0".repeat(64), "--reason", "r", "--only-this-code"));

        assertEquals(2, misuse.exitCode(), misuse.stderr());
        assertTrue(misuse.stderr().contains("infra/admin copies CODE|SHA256"), misuse.stderr());
        assertTrue(misuse.stderr().contains("[--only-this-code | --keep-content-allowed]"), misuse.stderr());
        assertTrue(misuse.stderr().contains("infra/admin verify"), "the whole usage: " + misuse.stderr());
        assertEquals(2, admin(List.of("--stack", "pastebin", "copies")).exitCode());
        assertFalse(Files.exists(answers.resolve("calls.log")), "no AWS call was made");
    }

    @Test
    void theKeysCommandsSendTheirCommandAndARefusalExitsNonZero() throws Exception {
        answer("{\"outcome\":\"key-created\",\"apiKey\":{\"id\":\"6f1c\",\"key\":\"pb_x\"}}");

        Run create = admin(List.of(
                "--stack",
                "pastebin",
                "keys",
                "create",
                "--name",
                "ci bot",
                "--daily-pastes",
                "10",
                "--daily-bytes",
                "1048576"));

        assertEquals(0, create.exitCode(), create.stderr());
        assertTrue(create.stderr().contains("target: stack pastebin, function " + FUNCTION), create.stderr());
        assertTrue(create.stdout().contains("\"key\":\"pb_x\""), "the key is printed: " + create.stdout());
        assertEquals(
                "{\"action\": \"create-key\", \"name\": \"ci bot\", \"dailyPastes\": 10, \"dailyBytes\": 1048576,"
                        + " \"requestedBy\": \"arn:aws:iam::123456789012:user/op\"}",
                Files.readString(answers.resolve("lambda.invoke.event.json")).strip());

        answer("{\"outcome\":\"keys\",\"apiKeys\":[]}");
        assertEquals(0, admin(List.of("--stack", "pastebin", "keys", "list")).exitCode());
        assertEquals(
                "{\"action\": \"list-keys\"}",
                Files.readString(answers.resolve("lambda.invoke.event.json")).strip());

        answer("{\"outcome\":\"refused\",\"error\":\"no API key has the id 6f1c\"}");
        Run revoke = admin(List.of("--stack", "pastebin", "keys", "revoke", "6f1c"));
        assertEquals(1, revoke.exitCode(), revoke.stderr());
        assertEquals(
                "{\"action\": \"revoke-key\", \"id\": \"6f1c\", \"requestedBy\": \"arn:aws:iam::123456789012:user/op\"}",
                Files.readString(answers.resolve("lambda.invoke.event.json")).strip());
    }

    @Test
    void aKeyNeedsANameAndWholeNumberLimits() throws Exception {
        assertEquals(2, admin(List.of("--stack", "pastebin", "keys", "create")).exitCode());
        Run limit = admin(List.of("--stack", "pastebin", "keys", "create", "--name", "n", "--daily-pastes", "ten"));
        assertEquals(2, limit.exitCode(), limit.stderr());
        assertTrue(limit.stderr().contains("--daily-pastes needs a whole number"), limit.stderr());
        Run misuse = admin(List.of("--stack", "pastebin", "keys", "revoke"));
        assertEquals(2, misuse.exitCode());
        assertTrue(misuse.stderr().contains("infra/admin keys revoke ID"), misuse.stderr());
        assertFalse(Files.exists(answers.resolve("calls.log")), "no AWS call was made");
    }

    private void answer(String payload) throws IOException {
        Files.writeString(answers.resolve("lambda.invoke.payload.json"), payload);
    }

    private Run admin(List<String> args) throws Exception {
        List<String> command =
                new ArrayList<>(List.of(ROOT.resolve("infra/admin").toString()));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command).directory(ROOT.toFile());
        pb.environment().put("PATH", work.resolve("bin") + ":" + System.getenv("PATH"));
        pb.environment().put("FAKE_AWS_DIR", answers.toString());
        pb.environment().remove("PASTEBIN_LOCAL");
        pb.environment().remove("PASTEBIN_STACK");
        Process p = pb.start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        String out = read(p.getInputStream());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "admin finished");
        return new Run(p.exitValue(), out, err.join());
    }

    private static String read(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
