package dev.pastebin.migrate;

import io.micronaut.data.connection.jdbc.advice.DelegatingDataSource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import javax.sql.DataSource;

/**
 * Has {@link DatabaseConnections} track each connection it opens until the connection is closed, so that the
 * deadline guard can abort what a run still holds, and asks it before opening one and before every call on one,
 * so that nothing reaches the database once the run has ended. The rest of {@link DataSource} is Micronaut's
 * delegation to the driver.
 */
final class TrackingDataSource extends DelegatingDataSource {

    private final DatabaseConnections run;

    TrackingDataSource(DataSource driver, DatabaseConnections run) {
        super(driver);
        this.run = run;
    }

    @Override
    public Connection getConnection() throws SQLException {
        run.checkRunning("a new connection");
        Connection connection = getTargetDataSource().getConnection();
        run.opened(connection);
        return (Connection) Proxy.newProxyInstance(
                Connection.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    if (method.getDeclaringClass() != Object.class) {
                        run.checkRunning(method.getName());
                    }
                    if ("close".equals(method.getName()) && method.getParameterCount() == 0) {
                        run.closed(connection);
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
