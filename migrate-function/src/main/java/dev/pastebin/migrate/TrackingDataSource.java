package dev.pastebin.migrate;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Keeps each connection it opens in {@code open} until the connection is closed, so that the deadline guard can
 * abort what a run still holds. The rest of {@link DataSource} is Micronaut's delegation to the driver.
 */
final class TrackingDataSource extends DelegatingDataSource {

    private final Set<Connection> open;

    TrackingDataSource(DataSource driver, Set<Connection> open) {
        super(driver);
        this.open = open;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection connection = getTargetDataSource().getConnection();
        open.add(connection);
        return (Connection) Proxy.newProxyInstance(
                Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    if ("close".equals(method.getName()) && method.getParameterCount() == 0) {
                        open.remove(connection);
                    }
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("the credentials come from the secret, not from the caller");
    }
}
