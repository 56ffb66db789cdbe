package dev.pastebin.core.priming;

import io.micronaut.context.annotation.Requires;
import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;

/** {@code SELECT 1}: opens the pool's connection (TLS, authentication) and loads the driver's code paths. */
@Singleton
@Requires(beans = DataSource.class)
public class DatabasePrimer implements Primer {

    private final DataSource dataSource;

    public DatabasePrimer(DataSource dataSource) {
        // The pool itself: the injected bean only hands out the connection of a surrounding transaction.
        this.dataSource = DelegatingDataSource.unwrapDataSource(dataSource);
    }

    @Override
    public String name() {
        return "database (SELECT 1)";
    }

    @Override
    public void prime() throws Exception {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT 1")) {
            result.next();
        }
    }
}
