package dev.pastebin.migrate;

import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of PostgreSQL that keeps every byte the clients send: what the server received, statement
 * texts and bind values included (the connections through it must not use TLS: {@code sslmode=disable}). A test
 * reads it once the clients have gone ({@link #awaitNoClients()}), so nothing they sent is still in flight.
 */
final class WireCapture implements AutoCloseable {

    private final ServerSocket listener;
    private final String host;
    private final int port;
    private final ByteArrayOutputStream sent = new ByteArrayOutputStream();
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger clients = new AtomicInteger();

    WireCapture(String host, int port) throws IOException {
        this.host = host;
        this.port = port;
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().name("wire-capture").start(this::accept);
    }

    /** The port clients connect to instead of PostgreSQL's. */
    int port() {
        return listener.getLocalPort();
    }

    /** What the clients sent since the last {@link #clear()}, as Latin-1 text (every byte one character). */
    String sent() {
        synchronized (sent) {
            return sent.toString(StandardCharsets.ISO_8859_1);
        }
    }

    void clear() {
        synchronized (sent) {
            sent.reset();
        }
    }

    /** Waits until every client connection has been closed and its bytes kept. */
    void awaitNoClients() {
        await().atMost(Duration.ofSeconds(30)).until(() -> clients.get() == 0);
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(host, port);
                sockets.add(client);
                sockets.add(server);
                clients.incrementAndGet();
                Thread.ofPlatform().daemon().start(() -> {
                    try {
                        pump(client.getInputStream(), server.getOutputStream(), true);
                    } catch (IOException e) {
                        // the connection ended
                    } finally {
                        closeQuietly(server);
                        closeQuietly(client);
                        clients.decrementAndGet();
                    }
                });
                Thread.ofPlatform().daemon().start(() -> {
                    try {
                        pump(server.getInputStream(), client.getOutputStream(), false);
                    } catch (IOException e) {
                        // the connection ended
                    } finally {
                        closeQuietly(client);
                    }
                });
            } catch (IOException e) {
                // closed
            }
        }
    }

    private void pump(InputStream from, OutputStream to, boolean keep) throws IOException {
        byte[] buffer = new byte[8192];
        for (int n = from.read(buffer); n >= 0; n = from.read(buffer)) {
            if (keep) {
                synchronized (sent) {
                    sent.write(buffer, 0, n);
                }
            }
            to.write(buffer, 0, n);
            to.flush();
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
    }
}
