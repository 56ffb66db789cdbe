package dev.pastebin.faults;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.CountDownLatch;

/**
 * The fault proxy on its own, switched over HTTP (see {@link FaultControl}); {@code make run ARGS="--s3-faults"}
 * starts it for S3 (infra/local/run.sh):
 * <pre>
 *   java -jar tools/fault-proxy/target/pastebin-fault-proxy-*.jar [--service s3|sqs|secretsmanager] [--port 4567] [--target http://127.0.0.1:4566]
 * </pre>
 * {@code --port 0} takes a free port; the first line printed names it.
 */
public final class FaultProxyMain {

    private FaultProxyMain() {}

    public static void main(String[] args) throws InterruptedException {
        Service service = Service.S3;
        int port = 4567;
        URI target = URI.create("http://127.0.0.1:4566");
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--service" -> service = Service.of(value(args, ++i));
                    case "--port" -> port = Integer.parseInt(value(args, ++i));
                    case "--target" -> target = URI.create(value(args, ++i));
                    default -> throw new IllegalArgumentException("unknown argument " + args[i]);
                }
            }
        } catch (IllegalArgumentException e) {
            System.err.println(
                    e.getMessage()
                            + "\nusage: java -jar tools/fault-proxy/target/pastebin-fault-proxy-*.jar [--service s3|sqs|secretsmanager] [--port 4567] [--target http://127.0.0.1:4566]");
            System.exit(2);
        }
        FaultProxy proxy;
        try {
            proxy = new FaultProxy(service, port, target);
        } catch (IOException e) {
            System.err.println(
                    "[" + service.label() + "-faults] cannot listen on 127.0.0.1:" + port + ": " + e.getMessage());
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            proxy.close();
            stopped.countDown();
        }));
        System.out.printf(
                "[%s-faults] forwarding %s to %s; switch with curl -X POST '%s/_faults?mode=outage&seconds=90'%n",
                service.label(), proxy.endpoint(), proxy.target(), proxy.endpoint());
        stopped.await();
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a value");
        }
        return args[i];
    }
}
