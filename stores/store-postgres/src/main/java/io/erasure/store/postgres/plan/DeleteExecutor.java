package io.erasure.store.postgres.plan;

import io.erasure.store.postgres.sql.DatasetSql;
import io.erasure.store.postgres.sql.SqlFailures;
import io.erasure.store.spi.DeleteOutcome;
import io.erasure.store.spi.DeletePlan;
import io.erasure.store.spi.PlannedStatement;
import io.erasure.store.spi.StoreException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Runs a plan's statements as they are, each in its own transaction, and classifies every key the plan meant to
 * delete: deleted, kept (present but the guard no longer held: written after the cut-off, or a new version), or
 * absent (gone since the plan). Keys the plan skipped or found absent count as such. An anonymising plan
 * ({@link ClearPlanner}) is run the same way; its cleared rows count as deleted.
 *
 * <p>A failure part-way leaves the earlier statements committed; retrying the same plan finds those keys absent,
 * so executing a plan twice deletes nothing more than executing it once.
 */
public final class DeleteExecutor {

    public DeleteOutcome execute(Connection connection, DatasetSql sql, DeletePlan plan) throws SQLException {
        boolean anonymising = plan.batch().anonymising();
        String expected = anonymising ? sql.clearing().clearStatement(plan.batch().clearColumns()) : sql.deleteStatement();
        boolean usesCutoff = anonymising ? sql.clearing().usesCutoff() : sql.shape().usesCutoff();
        for (PlannedStatement statement : plan.statements()) {
            if (!statement.text().equals(expected) || statement.values().size() != (usesCutoff ? 2 : 1)) {
                throw new IllegalArgumentException("the plan holds a statement this adapter did not make for dataset '"
                        + plan.batch().spec().name() + "'; plan the batch again with this adapter");
            }
        }
        int deleted = 0;
        int kept = (int) plan.count(DeletePlan.Action.SKIP_WRITTEN_AFTER_CUTOFF);
        int absent = (int) plan.count(DeletePlan.Action.ABSENT);
        int executed = 0;
        connection.setAutoCommit(true);
        for (PlannedStatement statement : plan.statements()) {
            try (PreparedStatement prepared = connection.prepareStatement(statement.text())) {
                for (int i = 0; i < statement.values().size(); i++) {
                    prepared.setObject(i + 1, statement.values().get(i));
                }
                try (ResultSet rs = prepared.executeQuery()) {
                    while (rs.next()) {
                        if (rs.getBoolean("deleted")) {
                            deleted++;
                        } else if (rs.getBoolean("present")) {
                            kept++;
                        } else {
                            absent++;
                        }
                    }
                }
            } catch (SQLException e) {
                if (SqlFailures.FOREIGN_KEY_VIOLATION.equals(e.getSQLState())) {
                    // undeclared referencing tables are refused by checkDataset: this is a row inserted concurrently
                    // under one being deleted; the retry's plan sees it and keeps the parent
                    throw new StoreException.Retriable("delete of dataset '" + plan.batch().spec().name() + "' batch "
                            + plan.batch().batchId() + " met a row added under a deleted row meanwhile: " + e.getMessage(), e);
                }
                throw e;
            }
            executed++;
        }
        return new DeleteOutcome(deleted, kept, absent, 0, executed);
    }
}
