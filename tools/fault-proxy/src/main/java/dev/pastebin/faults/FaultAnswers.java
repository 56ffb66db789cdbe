package dev.pastebin.faults;

import com.sun.net.httpserver.HttpExchange;
import dev.pastebin.faults.FaultProxy.Fault;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/** What the proxy answers instead of forwarding: a fault as the service would answer it, a DeleteObjects refused. */
final class FaultAnswers {

    private FaultAnswers() {}

    /** Answers {@code fault} as {@code service} would, holds the request first ({@link Fault#HANG}), or drops it. */
    static void fault(HttpExchange exchange, Service service, Fault fault) throws IOException, InterruptedException {
        switch (fault) {
            // Thrown out of the handler, the server closes the connection with nothing sent.
            case DROP_CONNECTION -> throw new IOException("connection dropped by the fault proxy");
            case HANG -> {
                Thread.sleep(FaultProxy.HANG_TIME.toMillis());
                send(exchange, service.error(fault));
            }
            default -> send(exchange, service.error(fault));
        }
    }

    /** Answers a DeleteObjects as S3 answers a per-key refusal: 200, an AccessDenied error for each key. */
    static void refusedDeletes(HttpExchange exchange, List<String> keys) throws IOException {
        StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<DeleteResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">");
        keys.forEach(key -> xml.append("<Error><Key>")
                .append(key)
                .append("</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error>"));
        send(
                exchange,
                new Service.Answer(
                        200,
                        "application/xml",
                        Map.of(),
                        xml.append("</DeleteResult>").toString()));
    }

    private static void send(HttpExchange exchange, Service.Answer answer) throws IOException {
        byte[] body = answer.bytes();
        exchange.getResponseHeaders().add("Content-Type", answer.contentType());
        answer.headers().forEach(exchange.getResponseHeaders()::add);
        if ("HEAD".equals(exchange.getRequestMethod())) {
            // as S3 answers a failed HeadObject: the status and headers, never a body
            exchange.sendResponseHeaders(answer.status(), -1);
            return;
        }
        exchange.sendResponseHeaders(answer.status(), body.length);
        exchange.getResponseBody().write(body);
    }
}
