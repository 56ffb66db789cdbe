package dev.pastebin.api.create;

import io.micronaut.data.connection.ConnectionOperations;
import io.micronaut.data.exceptions.DataAccessException;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fair to every client without a fair queue (docs/design.md, "Fair to every client"): with the delay on
 * ({@link UploadFairnessProperties}), a job whose client already has more than its backlog of pastes IN_PROGRESS is
 * sent with a {@code DelaySeconds} that makes the client's jobs beyond it visible at its fair rate, so a quiet
 * client's new job is never behind a heavy client's whole backlog, whatever order the queue delivers in. The backlog
 * is counted, not kept: the client's IN_PROGRESS rows ({@code upload_group}, written with the row; a partial index
 * over IN_PROGRESS rows), so a job that is processed, failed, held or delivered again needs no bookkeeping, and
 * nothing can drift.
 */
@Singleton
class UploadFairness {

    /** The client's other pastes still waiting for their upload, by the partial index over IN_PROGRESS rows. */
    static final String BACKLOG = "SELECT count(*) FROM pastes"
            + " WHERE upload_group = ? AND status = 'IN_PROGRESS' AND upload_group IS NOT NULL AND short_code <> ?";

    private static final Logger LOG = LoggerFactory.getLogger(UploadFairness.class);

    private final UploadFairnessProperties properties;
    private final ConnectionOperations<Connection> connections;

    UploadFairness(UploadFairnessProperties properties, ConnectionOperations<Connection> connections) {
        this.properties = properties;
        this.connections = connections;
    }

    /**
     * The {@code DelaySeconds} of {@code shortCode}'s job in {@code group}: 0 with the delay off (no statement), or
     * while the client's backlog is within its limit. A count that fails delays nothing: the create goes on, its job
     * queued at once as without the delay.
     */
    int delaySeconds(UploadGroup group, String shortCode) {
        if (!properties.enabled()) {
            return 0;
        }
        try {
            return properties.delaySeconds(
                    connections.executeRead(status -> backlog(status.getConnection(), group, shortCode)));
        } catch (RuntimeException e) {
            LOG.warn(
                    "paste {}: counting its client's backlog failed ({}); its job is not delayed",
                    shortCode,
                    e.toString());
            return 0;
        }
    }

    private static long backlog(Connection connection, UploadGroup group, String shortCode) {
        try (PreparedStatement count = connection.prepareStatement(BACKLOG)) {
            count.setString(1, group.id());
            count.setString(2, shortCode);
            try (ResultSet rs = count.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new DataAccessException("upload backlog count failed: " + e.getMessage(), e);
        }
    }
}
