package dev.pastebin.infra.local;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.pastebin.core.support.RealServices;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@code curl -L -T FILE URL/} against the local system ({@link LocalRuntimeProcess}: the real template,
 * function artifacts, PostgreSQL, LocalStack's S3 notifying the runtime's upload queue of staged files, as
 * infra/local/bootstrap.py configures the bucket of {@code make run}): curl's PUT is answered 307 with the paste in
 * headers, curl follows it to the pre-signed S3 PUT, the upload function verifies the file, and the paste is read back
 * byte for byte, then a Range of it (docs/using.md, "Large files"). {@code -Dcurl.upload.bytes=} sets the file's size
 * (3 MiB by default: curl sends {@code Expect: 100-continue} above 1 MiB); above about 4.5 MB the first request's body
 * no longer fits Lambda's 6 MB event, which this runtime enforces as Lambda does, so a 100 MB file goes the two-step way
 * (docs/using.md), not this one.
 */
@RealServices
class CurlUploadIT {

    private static final int BYTES = Integer.getInteger("curl.upload.bytes", 3 * 1024 * 1024);
    /** Lambda's synchronous invoke payload: the event, which carries the request's body. */
    private static final int LAMBDA_EVENT_LIMIT_BYTES = 6_291_456;

    private static final Duration VERIFIED_WITHIN = Duration.ofSeconds(90);
    private static LocalRuntimeProcess runtime;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws Exception {
        // its bucket notifies the upload queue of staged files, as the template's does
        runtime = LocalRuntimeProcess.shared();
    }

    @Test
    void curlLocationUploadCreatesTheLargePasteAndItReadsBackByteForByteAndByRange() throws Exception {
        byte[] content = new byte[BYTES];
        new Random(43).nextBytes(content);
        Path file = Files.write(dir.resolve("big.bin"), content);

        Run upload = curlUpload(file);

        assertEquals(0, upload.exit(), upload.err());
        List<Map<String, String>> answers = answers(upload.out());
        assertEquals(2, answers.size(), "the create's redirect, then S3's answer: " + upload.out());
        Map<String, String> redirect = answers.get(0);
        assertEquals("307", redirect.get(":status"), upload.out());
        String code = redirect.get("paste-short-code");
        String pasteUrl = redirect.get("paste-url");
        assertEquals(runtime.uri("/pastes/" + code).toString(), pasteUrl);
        assertTrue(redirect.get("location").contains("/staging/" + code + "/0?"), redirect.toString());
        assertTrue(redirect.containsKey("paste-delete-token"), redirect.toString());
        assertEquals("200", answers.get(1).get(":status"), "S3 took the file: " + upload.out());

        Path read = dir.resolve("read.bin");
        awaitVerified(pasteUrl);
        Run whole = run("curl", "-sS", "-f", "-L", "-o", read.toString(), pasteUrl);
        assertEquals(0, whole.exit(), whole.err());
        assertArrayEquals(content, Files.readAllBytes(read), "the file, byte for byte");

        Run range = run("curl", "-sS", "-f", "-L", "-r", "1000-1999", "-o", read.toString(), pasteUrl);
        assertEquals(0, range.exit(), range.err());
        assertArrayEquals(Arrays.copyOfRange(content, 1000, 2000), Files.readAllBytes(read), "bytes 1000 to 1999");
    }

    /**
     * {@code curl -L -T file http://host/} as transfer.sh's users write it (a URL ending in /: curl appends the file's
     * name), every answer's headers printed.
     */
    private Run curlUpload(Path file) throws Exception {
        return run(
                "curl",
                "-sS",
                "-L",
                "-T",
                file.toString(),
                "-D",
                "-",
                "-o",
                "/dev/null",
                runtime.uri("/").toString());
    }

    /**
     * Past 4.5 MiB the first request's body, base64-encoded in the event, no longer fits Lambda's 6 MB: the runtime,
     * as Lambda, refuses the event, and the gateway's own error is all curl gets (docs/using.md, "One file with
     * {@code curl -T}"). No paste is answered; larger files take the two-step create.
     */
    @Test
    void aFileWhoseFirstRequestCannotFitLambdasEventGetsTheGatewaysErrorAndNoPaste() throws Exception {
        byte[] content = new byte[LAMBDA_EVENT_LIMIT_BYTES * 3 / 4 + 1];
        new Random(44).nextBytes(content);
        Path file = Files.write(dir.resolve("too-big.bin"), content);

        Run upload = curlUpload(file);

        List<Map<String, String>> answers = answers(upload.out());
        assertEquals(1, answers.size(), "no redirect to follow: " + upload.out());
        assertEquals("500", answers.getFirst().get(":status"), upload.out());
        assertEquals(null, answers.getFirst().get("paste-short-code"), upload.out());
    }

    /** Reads the paste's status until it is no longer 202 (the file being verified); it must then redirect (307). */
    private void awaitVerified(String pasteUrl) throws Exception {
        List<String> statuses = new ArrayList<>();
        long deadline = System.nanoTime() + VERIFIED_WITHIN.toNanos();
        while (true) {
            Run head = run("curl", "-sS", "-o", "/dev/null", "-w", "%{http_code}", pasteUrl);
            statuses.add(head.out());
            if (!head.out().equals("202") || System.nanoTime() > deadline) {
                assertEquals("307", head.out(), "statuses while polling: " + statuses + "\n" + runtime.output());
                return;
            }
            Thread.sleep(250);
        }
    }

    /** Each response's headers as {@code curl -D -} wrote them (names lower-cased), its status as ":status". */
    private static List<Map<String, String>> answers(String dump) {
        List<Map<String, String>> answers = new ArrayList<>();
        Map<String, String> current = null;
        for (String line : dump.split("\r?\n")) {
            if (line.startsWith("HTTP/")) {
                current = new TreeMap<>();
                current.put(":status", line.split(" ")[1]);
                // an interim 100 Continue is no answer of its own
                if (!current.get(":status").startsWith("1")) {
                    answers.add(current);
                }
            } else if (current != null && line.contains(":")) {
                int colon = line.indexOf(':');
                current.put(
                        line.substring(0, colon).toLowerCase(Locale.ROOT),
                        line.substring(colon + 1).strip());
            }
        }
        return answers;
    }

    private record Run(int exit, String out, String err) {}

    private Run run(String... command) throws IOException, InterruptedException {
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process process = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), String.join(" ", command) + " did not finish");
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
    }
}
