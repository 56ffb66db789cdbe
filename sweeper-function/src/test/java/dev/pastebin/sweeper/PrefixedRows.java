package dev.pastebin.sweeper;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The rows one sweeper test owns on the shared database: their short codes start with the test's prefix,
 * so tests running at the same time (or other modules' tests) never see or delete each other's rows.
 */
final class PrefixedRows {

    private PrefixedRows() {}

    /** Status of each of the prefix's rows, by the name the test gave it (the short code without the prefix). */
    static Map<String, String> statuses(DataSource dataSource, String prefix) throws SQLException {
        var result = new HashMap<String, String>();
        try (Connection c = dataSource.getConnection();
                PreparedStatement s =
                        c.prepareStatement("SELECT short_code, status FROM pastes WHERE short_code LIKE ? || '%'")) {
            s.setString(1, prefix);
            try (ResultSet rows = s.executeQuery()) {
                while (rows.next()) {
                    result.put(rows.getString(1).substring(prefix.length()), rows.getString(2));
                }
            }
        }
        return result;
    }
}
