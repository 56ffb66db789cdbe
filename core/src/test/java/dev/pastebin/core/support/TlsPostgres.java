package dev.pastebin.core.support;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A PostgreSQL cluster of the test's own, with TLS on: a throw-away CA signs a server certificate valid for
 * the host name {@code localhost} only (not for {@code 127.0.0.1}), so a client that verifies host names
 * accepts {@code localhost} and refuses {@code 127.0.0.1}. A second CA, which signed nothing, is there to be
 * the wrong trust anchor. The cluster listens on a free port of 127.0.0.1, lives in a temporary directory and
 * is removed by {@link #close()}; the shared PostgreSQL is never touched. {@link #startWithExpiredCertificate()}
 * starts one whose server certificate (from the same CA, for {@code localhost}) expired in 2020. Connections as
 * {@code postgres} are trusted without a password; {@link #PASSWORD_USER} must give {@link #PASSWORD}.
 *
 * <p>Needs openssl and PostgreSQL's server binaries (initdb, pg_ctl) under /usr/lib/postgresql/&lt;version&gt;/bin,
 * as infra/local/postgres.sh installs them. Run as root, the cluster runs as the postgres user (PostgreSQL
 * refuses to run as root).
 */
public final class TlsPostgres implements AutoCloseable {

    /** A login whose password is checked (scram-sha-256), unlike postgres's. */
    public static final String PASSWORD_USER = "password_checked";

    /** {@link #PASSWORD_USER}'s password. */
    public static final String PASSWORD = "the-right-password";

    private final Path dir;
    private final Path bin;
    private final boolean asPostgresUser;
    private final int port;
    private final boolean expiredCertificate;

    private TlsPostgres(Path dir, Path bin, boolean asPostgresUser, int port, boolean expiredCertificate) {
        this.dir = dir;
        this.bin = bin;
        this.asPostgresUser = asPostgresUser;
        this.port = port;
        this.expiredCertificate = expiredCertificate;
    }

    public static TlsPostgres start() throws IOException, InterruptedException {
        return start(false);
    }

    /** A cluster whose server certificate, signed by {@link #caCertificate()} for localhost, expired in 2020. */
    public static TlsPostgres startWithExpiredCertificate() throws IOException, InterruptedException {
        return start(true);
    }

    private static TlsPostgres start(boolean expiredCertificate) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("pastebin-tls-postgres-");
        boolean root = "root".equals(System.getProperty("user.name"));
        var postgres = new TlsPostgres(dir, serverBinaries(), root, freePort(), expiredCertificate);
        try {
            postgres.createCertificates();
            postgres.createAndStartCluster();
            postgres.createPasswordUser();
        } catch (IOException | InterruptedException | RuntimeException e) {
            postgres.close();
            throw e;
        }
        return postgres;
    }

    public int port() {
        return port;
    }

    /** The CA that signed the server's certificate, as PEM: the right trust anchor. */
    public Path caCertificate() {
        return dir.resolve("ca.pem");
    }

    /** A CA that signed nothing the server presents: the wrong trust anchor. */
    public Path otherCaCertificate() {
        return dir.resolve("other-ca.pem");
    }

    /** A JDBC URL of the cluster's postgres database on {@code host}, with the given query ({@code sslmode=...}). */
    public String jdbcUrl(String host, String query) {
        return "jdbc:postgresql://" + host + ":" + port + "/postgres?" + query;
    }

    private void createCertificates() throws IOException, InterruptedException {
        Files.writeString(dir.resolve("server.ext"), "subjectAltName=DNS:localhost\n", StandardCharsets.US_ASCII);
        run(
                false,
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "2",
                "-subj",
                "/CN=pastebin test CA",
                "-keyout",
                "ca.key",
                "-out",
                "ca.pem");
        run(
                false,
                "openssl",
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                "2",
                "-subj",
                "/CN=pastebin other CA",
                "-keyout",
                "other-ca.key",
                "-out",
                "other-ca.pem");
        run(
                false,
                "openssl",
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-subj",
                "/CN=localhost",
                "-keyout",
                "server.key",
                "-out",
                "server.csr");
        if (expiredCertificate) {
            signExpired();
        } else {
            run(
                    false,
                    "openssl",
                    "x509",
                    "-req",
                    "-in",
                    "server.csr",
                    "-CA",
                    "ca.pem",
                    "-CAkey",
                    "ca.key",
                    "-CAcreateserial",
                    "-days",
                    "2",
                    "-extfile",
                    "server.ext",
                    "-out",
                    "server.crt");
        }
        if (asPostgresUser) {
            run(false, "chown", "-R", "postgres:postgres", dir.toString());
        }
        run(asPostgresUser, "chmod", "600", "server.key");
    }

    /** openssl x509 cannot back-date a certificate; openssl ca can, with a minimal CA configuration. */
    private void signExpired() throws IOException, InterruptedException {
        Files.writeString(
                dir.resolve("ca.cnf"),
                String.join(
                        "\n",
                        "[ca]",
                        "default_ca = test_ca",
                        "[test_ca]",
                        "database = index.txt",
                        "new_certs_dir = .",
                        "serial = serial",
                        "default_md = sha256",
                        "policy = any",
                        "[any]",
                        "commonName = supplied",
                        "[server]",
                        "subjectAltName = DNS:localhost",
                        ""),
                StandardCharsets.US_ASCII);
        Files.writeString(dir.resolve("index.txt"), "", StandardCharsets.US_ASCII);
        Files.writeString(dir.resolve("serial"), "01\n", StandardCharsets.US_ASCII);
        run(
                false,
                "openssl",
                "ca",
                "-batch",
                "-config",
                "ca.cnf",
                "-cert",
                "ca.pem",
                "-keyfile",
                "ca.key",
                "-in",
                "server.csr",
                "-out",
                "server.crt",
                "-notext",
                "-extensions",
                "server",
                "-startdate",
                "20200101000000Z",
                "-enddate",
                "20200102000000Z");
    }

    private void createAndStartCluster() throws IOException, InterruptedException {
        run(
                asPostgresUser,
                bin.resolve("initdb").toString(),
                "-D",
                "data",
                "-A",
                "trust",
                "-U",
                "postgres",
                "--no-sync");
        // Before initdb's trust lines: this one login's password is checked.
        Path hba = dir.resolve("data/pg_hba.conf");
        Files.writeString(
                hba,
                "host all " + PASSWORD_USER + " 127.0.0.1/32 scram-sha-256\n" + Files.readString(hba),
                StandardCharsets.US_ASCII);
        String options = String.join(
                " ",
                "-p",
                Integer.toString(port),
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "unix_socket_directories=" + dir,
                "-c",
                "ssl=on",
                "-c",
                "ssl_cert_file=" + dir.resolve("server.crt"),
                "-c",
                "ssl_key_file=" + dir.resolve("server.key"),
                "-c",
                "fsync=off");
        run(
                asPostgresUser,
                bin.resolve("pg_ctl").toString(),
                "-D",
                "data",
                "-l",
                "postgres.log",
                "-w",
                "-t",
                "60",
                "-o",
                options,
                "start");
    }

    private void createPasswordUser() throws IOException, InterruptedException {
        run(
                asPostgresUser,
                bin.resolve("psql").toString(),
                "-h",
                dir.toString(),
                "-p",
                Integer.toString(port),
                "-U",
                "postgres",
                "-d",
                "postgres",
                "-v",
                "ON_ERROR_STOP=1",
                "-c",
                "CREATE ROLE " + PASSWORD_USER + " LOGIN PASSWORD '" + PASSWORD + "'");
    }

    @Override
    public void close() throws IOException, InterruptedException {
        if (Files.exists(dir.resolve("data/postmaster.pid"))) {
            run(asPostgresUser, bin.resolve("pg_ctl").toString(), "-D", "data", "-m", "immediate", "-w", "stop");
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    private void run(boolean asPostgres, String... command) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>();
        if (asPostgres) {
            line.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        line.addAll(List.of(command));
        Process process = new ProcessBuilder(line)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(90, TimeUnit.SECONDS) || process.exitValue() != 0) {
            String log = Files.exists(dir.resolve("postgres.log")) ? Files.readString(dir.resolve("postgres.log")) : "";
            throw new IllegalStateException(String.join(" ", line) + " failed:\n" + output + log);
        }
    }

    private static Path serverBinaries() throws IOException {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.map(version -> version.resolve("bin"))
                    .filter(bin -> Files.isExecutable(bin.resolve("initdb")))
                    .max(Comparator.naturalOrder())
                    .orElseThrow(
                            () -> new IllegalStateException(
                                    "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin (infra/local/postgres.sh installs them)"));
        }
    }

    private static int freePort() throws IOException {
        try (var socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
