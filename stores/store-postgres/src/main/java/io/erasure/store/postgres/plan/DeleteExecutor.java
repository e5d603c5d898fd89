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
 * <p>A delete's transaction first locks the dataset's tables against DDL ({@link DatasetSql#lockStatement()}), then
 * its statement deletes only if the catalog is still at the plan's
 * {@link io.erasure.store.postgres.schema.SchemaVersion}: otherwise nothing is deleted and {@link StaleSchema} is
 * thrown, as it is for a plan made at an older version.
 *
 * <p>A failure part-way leaves the earlier statements committed; retrying the same plan finds those keys absent,
 * so executing a plan twice deletes nothing more than executing it once.
 */
public final class DeleteExecutor {

    public DeleteOutcome execute(Connection connection, DatasetSql sql, DeletePlan plan) throws SQLException {
        boolean anonymising = plan.batch().anonymising();
        String expected =
                anonymising ? sql.clearing().clearStatement(plan.batch().clearColumns()) : sql.deleteStatement();
        boolean usesCutoff =
                anonymising ? sql.clearing().usesCutoff() : sql.shape().usesCutoff();
        // keys[, cut-off], the planned row (unit) digests and, for a delete, the schema version
        int values = 1 + (usesCutoff ? 1 : 0) + 1 + (anonymising ? 0 : 1);
        String dataset = "dataset '" + plan.batch().spec().name() + "'";
        for (PlannedStatement statement : plan.statements()) {
            if (!anonymising
                    && !statement.values().isEmpty()
                    && !sql.shape()
                            .schema()
                            .digest()
                            .equals(statement.values().get(statement.values().size() - 1))) {
                throw new StaleSchema("the schema of " + dataset + " changed since the batch was planned");
            }
            if (!statement.text().equals(expected) || statement.values().size() != values) {
                throw new IllegalArgumentException("the plan holds a statement this adapter did not make for " + dataset
                        + "; plan the batch again with this adapter");
            }
        }
        int deleted = 0;
        int kept = (int) plan.count(DeletePlan.Action.SKIP_WRITTEN_AFTER_CUTOFF);
        int absent = (int) plan.count(DeletePlan.Action.ABSENT);
        int executed = 0;
        connection.setAutoCommit(anonymising);
        try {
            for (PlannedStatement statement : plan.statements()) {
                int[] counts = anonymising
                        ? run(connection, statement, false)
                        : deleteInTransaction(connection, sql, statement, dataset, plan);
                deleted += counts[0];
                kept += counts[1];
                absent += counts[2];
                executed++;
            }
        } finally {
            connection.setAutoCommit(true);
        }
        return new DeleteOutcome(deleted, kept, absent, 0, executed);
    }

    private static int[] deleteInTransaction(
            Connection connection, DatasetSql sql, PlannedStatement statement, String dataset, DeletePlan plan)
            throws SQLException {
        try {
            try (PreparedStatement lock = connection.prepareStatement(sql.lockStatement())) {
                lock.execute();
            }
            int[] counts = run(connection, statement, true);
            if (counts[3] > 0) {
                connection.rollback();
                throw new StaleSchema("the schema of " + dataset + " changed since the batch was planned");
            }
            connection.commit();
            return counts;
        } catch (SQLException e) {
            connection.rollback();
            if (SqlFailures.FOREIGN_KEY_VIOLATION.equals(e.getSQLState())) {
                // undeclared referencing tables are refused by checkDataset: this is a row inserted concurrently
                // under one being deleted; the retry's plan sees it and keeps the parent
                throw new StoreException.Retriable(
                        "delete of " + dataset + " batch " + plan.batch().batchId()
                                + " met a row added under a deleted row meanwhile: " + e.getMessage(),
                        e);
            }
            throw e;
        }
    }

    /** {deleted, kept, absent, keys refused because the schema changed}. */
    private static int[] run(Connection connection, PlannedStatement statement, boolean checksSchema)
            throws SQLException {
        int[] counts = new int[4];
        try (PreparedStatement prepared = connection.prepareStatement(statement.text())) {
            for (int i = 0; i < statement.values().size(); i++) {
                prepared.setObject(i + 1, statement.values().get(i));
            }
            try (ResultSet rs = prepared.executeQuery()) {
                while (rs.next()) {
                    if (checksSchema && !rs.getBoolean("schema_unchanged")) {
                        counts[3]++;
                    } else if (rs.getBoolean("deleted")) {
                        counts[0]++;
                    } else if (rs.getBoolean("present")) {
                        counts[1]++;
                    } else {
                        counts[2]++;
                    }
                }
            }
        }
        return counts;
    }
}
