package dev.pastebin.testkit;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import org.flywaydb.core.Flyway;

/**
 * A database of one run on a PostgreSQL server, so that runs never share rows: dropped and created afresh with
 * core's migrations (its jar's {@code db/migration}, applied by Flyway as infra/local/migrate applies them), or only
 * dropped at the end of a run whose database something else created (the run command).
 */
public final class RunDatabase {

    /** Where Flyway finds the migrations: core's jar (core/src/main/resources/db/migration). */
    public static final String MIGRATIONS = "classpath:db/migration";

    private final String host;
    private final int port;
    private final String user;
    private final String password;
    private final String name;
    private final String parameters;

    /** {@code name} is a plain PostgreSQL name ({@code [a-z0-9_]+}): it goes into SQL as it is. */
    public RunDatabase(String host, int port, String user, String password, String name) {
        this(host, port, user, password, name, "");
    }

    private RunDatabase(String host, int port, String user, String password, String name, String parameters) {
        if (!name.matches("[a-z0-9_]+")) {
            throw new IllegalArgumentException("not a plain database name: " + name);
        }
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password;
        this.name = name;
        this.parameters = parameters;
    }

    /** The same database, every connection to it (and to the server) with these JDBC URL parameters. */
    public RunDatabase withParameters(String parameters) {
        return new RunDatabase(host, port, user, password, name, parameters);
    }

    public String name() {
        return name;
    }

    /** {@code jdbc:postgresql://host:port/name}, with the parameters if any. */
    public String url() {
        return url(name);
    }

    private String url(String database) {
        return "jdbc:postgresql://" + host + ":" + port + "/" + database
                + (parameters.isEmpty() ? "" : "?" + parameters);
    }

    /** A new connection to the database. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), user, password);
    }

    /** Drops the database (closing its connections) and creates it again with every migration applied. */
    public void recreate() throws SQLException {
        onServer("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)", "CREATE DATABASE " + name);
        if (migrate() == 0) {
            throw new IllegalStateException("no migrations in " + MIGRATIONS + " (is core's jar on the class path?)");
        }
    }

    /** Applies the migrations the database does not have yet; how many. */
    public int migrate() {
        return Flyway.configure()
                .dataSource(url(), user, password)
                .locations(MIGRATIONS)
                .load()
                .migrate()
                .migrationsExecuted;
    }

    /** Drops the database, closing its connections; nothing when there is none. */
    public void drop() throws SQLException {
        onServer("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }

    private void onServer(String... statements) throws SQLException {
        try (Connection admin = DriverManager.getConnection(url("postgres"), user, password);
                Statement st = admin.createStatement()) {
            for (String statement : statements) {
                st.execute(statement);
            }
        }
    }
}
