package dev.pastebin.core.support;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A TCP proxy in front of PostgreSQL that reads the wire protocol (version 3, plaintext: the client must
 * connect with {@code sslmode=disable&gssEncMode=disable}) and counts, without changing a byte:
 * <ul>
 *   <li>connections opened;</li>
 *   <li>round trips: every Sync ('S') or simple Query ('Q') the client sends is one wait for the server's
 *   ReadyForQuery ('Z'), timed from the message to the answer. A round trip that only runs the pool's connection
 *   check ({@code SELECT 1}, or an empty statement) is counted apart: Hikari checks a connection it hands out only
 *   when it has been idle for more than half a second, so that round trip depends on timing, not on the code;</li>
 *   <li>busy time: from the first message on an idle connection to the ReadyForQuery that says idle again
 *   ({@code 'I'}), i.e. how long a transaction (or a single autocommit statement) keeps the connection, the
 *   application's own work inside a transaction included.</li>
 * </ul>
 */
public final class PostgresWireMeter implements AutoCloseable {

    private static final int SSL_REQUEST = 80877103;
    private static final int GSS_ENCRYPTION_REQUEST = 80877104;
    private static final int CANCEL_REQUEST = 80877102;
    /** What the pool runs to check a connection (pgjdbc's {@code isValid}); nothing else runs them alone. */
    private static final Set<String> CONNECTION_CHECKS = Set.of("", "SELECT 1");

    /** The counters at one moment; {@link #minus} gives the work between two readings. */
    public record Reading(
            long connections, long roundTrips, long connectionChecks, long roundTripNanos, long busyNanos) {

        public Reading minus(Reading earlier) {
            return new Reading(
                    connections - earlier.connections,
                    roundTrips - earlier.roundTrips,
                    connectionChecks - earlier.connectionChecks,
                    roundTripNanos - earlier.roundTripNanos,
                    busyNanos - earlier.busyNanos);
        }
    }

    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final AtomicLong connections = new AtomicLong();
    private final AtomicLong roundTrips = new AtomicLong();
    private final AtomicLong connectionChecks = new AtomicLong();
    private final AtomicLong roundTripNanos = new AtomicLong();
    private final AtomicLong busyNanos = new AtomicLong();
    /** The statements of every round trip, in order, to see what a count is made of. */
    private final List<String> trace = Collections.synchronizedList(new ArrayList<>());

    private PostgresWireMeter(ServerSocket server, String targetHost, int targetPort) {
        this.server = server;
        this.targetHost = targetHost;
        this.targetPort = targetPort;
    }

    /** Listens on a free port of 127.0.0.1 and forwards every connection to {@code targetHost:targetPort}. */
    public static PostgresWireMeter start(String targetHost, int targetPort) throws IOException {
        PostgresWireMeter meter = new PostgresWireMeter(
                new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), targetHost, targetPort);
        Thread.ofPlatform().daemon().name("pg-meter-accept").start(meter::accept);
        return meter;
    }

    public int port() {
        return server.getLocalPort();
    }

    /** The statements of the round trips from index {@code from} of the trace on (a reading's {@code traced}). */
    public List<String> traceFrom(int from) {
        synchronized (trace) {
            return List.copyOf(trace.subList(Math.min(from, trace.size()), trace.size()));
        }
    }

    public int traced() {
        return trace.size();
    }

    public Reading read() {
        return new Reading(
                connections.get(), roundTrips.get(), connectionChecks.get(), roundTripNanos.get(), busyNanos.get());
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket upstream = new Socket(targetHost, targetPort);
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                connections.incrementAndGet();
                Connection connection = new Connection();
                Thread.ofVirtual().start(() -> pump(client, upstream, () -> connection.frontend(client, upstream)));
                Thread.ofVirtual().start(() -> pump(upstream, client, () -> connection.backend(upstream, client)));
            } catch (IOException e) {
                if (!server.isClosed()) {
                    System.err.println("[pg-meter] " + e);
                }
            }
        }
    }

    private interface Pump {
        void run() throws IOException;
    }

    /** Runs one direction until either side closes, then closes both. */
    private static void pump(Socket from, Socket to, Pump pump) {
        try {
            pump.run();
        } catch (EOFException e) {
            // the peer closed the connection
        } catch (IOException e) {
            // the other direction closed the sockets
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    /** One message of the protocol after start-up: a type byte, then a length that counts itself, then the body. */
    private record Message(byte type, byte[] body) {

        static Message read(DataInputStream in) throws IOException {
            byte type = in.readByte();
            int length = in.readInt();
            byte[] body = in.readNBytes(length - 4);
            if (body.length < length - 4) {
                throw new EOFException();
            }
            return new Message(type, body);
        }

        /** Passes it on unchanged, flushing once nothing more has arrived from {@code in}. */
        void forward(DataInputStream in, OutputStream out) throws IOException {
            out.write(type);
            writeInt(out, body.length + 4);
            out.write(body);
            if (in.available() == 0) {
                out.flush();
            }
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }

    /** The protocol state of one client connection, shared by its two directions. */
    private final class Connection {

        /** When each Sync or Query still waiting for its ReadyForQuery was sent, and whether it only checked the connection. */
        private final Deque<long[]> pending = new ArrayDeque<>();
        /** The text of each prepared statement by name ("" is the unnamed one); empty is the connection check. */
        private final Map<String, String> statements = new HashMap<>();

        private final List<String> group = new ArrayList<>();
        private long busySince = -1;

        void frontend(Socket client, Socket upstream) throws IOException {
            DataInputStream in = new DataInputStream(new BufferedInputStream(client.getInputStream()));
            OutputStream out = new BufferedOutputStream(upstream.getOutputStream());
            int length = in.readInt();
            int code = in.readInt();
            if (code == SSL_REQUEST || code == GSS_ENCRYPTION_REQUEST) {
                throw new IOException(
                        "the client asked for an encrypted connection; connect with sslmode=disable&gssEncMode=disable");
            }
            byte[] rest = in.readNBytes(length - 8);
            writeInt(out, length);
            writeInt(out, code);
            out.write(rest);
            out.flush();
            if (code == CANCEL_REQUEST) {
                return;
            }
            while (true) {
                Message message = Message.read(in);
                synchronized (this) {
                    onFrontend(message.type(), message.body());
                }
                message.forward(in, out);
            }
        }

        private void onFrontend(byte type, byte[] body) {
            long now = System.nanoTime();
            if (busySince < 0 && type != 'X') {
                busySince = now;
            }
            switch (type) {
                case 'P' -> {
                    String[] strings = cStrings(body, 2);
                    statements.put(strings[0], strings[1].strip());
                }
                case 'B' -> group.add(statements.getOrDefault(cStrings(body, 2)[1], "?"));
                case 'S' -> {
                    roundTripSent(now, String.join(" ; ", group));
                    group.clear();
                }
                case 'Q' -> roundTripSent(now, cStrings(body, 1)[0].strip());
                default -> {
                    // Describe, Execute, Close, Flush, Terminate, authentication: no round trip of their own
                }
            }
        }

        private void roundTripSent(long now, String statement) {
            boolean connectionCheck = CONNECTION_CHECKS.contains(statement);
            pending.add(new long[] {now, connectionCheck ? 1 : 0});
            if (!connectionCheck) {
                trace.add(statement);
            }
        }

        void backend(Socket upstream, Socket client) throws IOException {
            DataInputStream in = new DataInputStream(new BufferedInputStream(upstream.getInputStream()));
            OutputStream out = new BufferedOutputStream(client.getOutputStream());
            while (true) {
                Message message = Message.read(in);
                if (message.type() == 'Z') {
                    synchronized (this) {
                        onReadyForQuery(message.body()[0]);
                    }
                }
                message.forward(in, out);
            }
        }

        private void onReadyForQuery(byte transactionStatus) {
            long now = System.nanoTime();
            long[] sent = pending.poll();
            if (sent == null) {
                busySince = -1; // the end of the start-up (authentication), not an answer to the application
                return;
            }
            if (sent[1] == 1) {
                connectionChecks.incrementAndGet();
            } else {
                roundTrips.incrementAndGet();
                roundTripNanos.addAndGet(now - sent[0]);
            }
            if (transactionStatus == 'I' && pending.isEmpty() && busySince >= 0) {
                busyNanos.addAndGet(now - busySince);
                busySince = -1;
            }
        }
    }

    /** The first {@code count} NUL-terminated strings of a message body. */
    private static String[] cStrings(byte[] body, int count) {
        String[] strings = new String[count];
        int start = 0;
        for (int i = 0; i < count; i++) {
            int end = start;
            while (end < body.length && body[end] != 0) {
                end++;
            }
            strings[i] = new String(body, start, end - start, StandardCharsets.UTF_8);
            start = end + 1;
        }
        return strings;
    }

    private static void writeInt(OutputStream out, int value) throws IOException {
        out.write(value >>> 24);
        out.write(value >>> 16);
        out.write(value >>> 8);
        out.write(value);
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
