package io.erasure.controlplane.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.infra.LocalEngines;
import io.erasure.infra.PostgresEngine;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Issue 19: the migration that introduced running totals fills them in for the runs and forward requests recorded
 * before it, exactly as the control plane used to sum their batches on every event. Migrates a schema of its own to
 * V8, records batches the old way, then migrates to V9.
 */
class RunningTotalsBackfillIT {

    private static final String INSERT_RUN = """
            INSERT INTO runs (id, dataset, spec, state, version, dry_run, triggered_by, created_at, updated_at)
            VALUES (?, 'profiles', '{}', ?, 1, false, 'o', now(), now())""";
    private static final String PROFILES_TOTALS = """
            SELECT sum_reported, sum_failures FROM forward_targets
            WHERE request_id = 'req-1' AND dataset = 'profiles'""";
    private static final String INSERT_RUN_BATCH = """
            INSERT INTO run_batches (run_id, batch_id, task_id, dataset, copy_of, copy_tasks, deleted,
                                     skipped_newer, already_absent, failed, read_back, still_present,
                                     received_at)
            VALUES (?, ?, ?, ?, null, ?, ?, 0, 1, 0, ?, ?, ?)""";

    private static final String SCHEMA = "control_plane_backfill_" + (System.nanoTime() % 100_000);

    @Test
    void existingRunsAndForwardTargetsGetTheTotalsTheirBatchesSumTo() {
        PostgresEngine postgres = LocalEngines.postgres();
        DriverManagerDataSource dataSource =
                new DriverManagerDataSource(postgres.jdbcUrl(), postgres.username(), postgres.password());
        dataSource.setSchema(SCHEMA);
        Flyway.configure()
                .dataSource(dataSource)
                .schemas(SCHEMA)
                .target("8")
                .load()
                .migrate();
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        Timestamp t0 = Timestamp.from(Instant.parse("2026-11-30T10:00:00Z"));
        Timestamp t1 = Timestamp.from(Instant.parse("2026-11-30T10:05:00Z"));
        jdbc.update("""
                INSERT INTO datasets (name, owner_team, store_kind, spec, enabled, revision, registered_by,
                                      registered_at, updated_by, updated_at)
                VALUES ('profiles', 't', 'CASSANDRA', '{}', true, 1, 'o', now(), 'o', now())""");
        // one active run per dataset: the others are done
        for (String run : List.of("run-a", "run-b", "run-empty")) {
            jdbc.update(INSERT_RUN, run, run.equals("run-a") ? "DELETING" : "COMPLETED");
        }
        // run-a: two own batches (one from before copies were recorded: no dataset), two copy batches of one task,
        // and a copy task that failed for good; run-b: one own batch
        ownBatch(jdbc, "run-a", "b-1", null, 2, 10, "CLEAN", 0, t0);
        ownBatch(jdbc, "run-a", "b-2", "profiles", 1, 5, "ROWS_REMAINING", 2, t1);
        jdbc.update("""
                INSERT INTO run_batches (run_id, batch_id, task_id, dataset, copy_of, copy_tasks, deleted,
                                         skipped_newer, already_absent, failed, read_back, still_present, received_at)
                VALUES ('run-a', 'c-1', 'task-c', 'profiles--cache', 'profiles', 0, 4, 0, 1, 0, 'CLEAN', 0, ?),
                       ('run-a', 'c-2', 'task-c', 'profiles--cache', 'profiles', 0, 3, 0, 0, 0, 'NOT_SUPPORTED', 0,
                        ?)""", t0, t1);
        jdbc.update("""
                INSERT INTO run_batch_failures (run_id, batch_id, task_id, dataset, copy_of, reason, received_at)
                VALUES ('run-a', 'c-3', 'task-d', 'profiles--search', 'profiles', 'boom', ?)""", t1);
        ownBatch(jdbc, "run-b", "b-1", "profiles", 0, 7, "CLEAN", 0, t0);

        // a lookup target: its lookup resolved task-r; task-r reported, as did a stale task-x (not counted), and a
        // copy batch; a key target with a failed batch
        jdbc.update("""
                INSERT INTO forward_targets (request_id, dataset, event_id, key_set, identifier_source, action, keys,
                                             task_ids, blocking, outcome, confirmed, expected_keys, lookup,
                                             lookup_tasks, updated_at)
                VALUES ('req-1', 'orders', gen_random_uuid(), 'k1', 'src', 'DELETE', '[]', '["task-l"]', true,
                        'PENDING', false, 0, true, 1, now()),
                       ('req-1', 'profiles', gen_random_uuid(), 'k2', 'src', 'DELETE', '[]', '["task-p"]', true,
                        'FAILED', false, 3, false, 0, now())""");
        jdbc.update("""
                INSERT INTO forward_batches (request_id, batch_id, task_id, dataset, copy_of, completed, failure,
                                             deleted, skipped_newer, already_absent, failed, still_present, copy_tasks,
                                             resolved_task_ids, resolved_keys, at)
                VALUES ('req-1', 'l-1', 'task-l', 'orders', null, true, null, 0, 0, 0, 0, 0, 0, '["task-r"]', 4, now()),
                       ('req-1', 'r-1', 'task-r', 'orders', null, true, null, 3, 1, 0, 0, 0, 1, null, null, now()),
                       ('req-1', 'x-1', 'task-x', 'orders', null, true, null, 9, 0, 0, 0, 0, 0, null, null, now()),
                       ('req-1', 'oc-1', 'task-oc', 'orders--cache', 'orders', true, null, 1, 0, 0, 0, 2, 0, null, null,
                        now()),
                       ('req-1', 'p-1', 'task-p', 'profiles', null, false, 'timeout', 0, 0, 0, 0, 0, 0, null, null,
                        now())""");

        Flyway.configure()
                .dataSource(dataSource)
                .schemas(SCHEMA)
                .target("9")
                .load()
                .migrate();

        assertThat(jdbc.queryForList("""
                SELECT run_id, dataset, batches, deleted, skipped_newer, already_absent, still_present, clean_batches,
                       rows_remaining_batches, not_supported_batches, first_at, last_at
                FROM run_batch_totals ORDER BY run_id, dataset"""))
                .containsExactly(
                        totals("run-a", "profiles", 2, 15, 0, 2, 2, 1, 1, 0, t0, t1),
                        totals("run-a", "profiles--cache", 2, 7, 0, 1, 0, 1, 0, 1, t0, t1),
                        totals("run-b", "profiles", 1, 7, 0, 1, 0, 1, 0, 0, t0, t0));
        assertThat(jdbc.queryForList("""
                SELECT id, batches_completed, copy_tasks_published, copy_tasks_reported FROM runs ORDER BY id"""))
                .containsExactly(
                        Map.of(
                                "id",
                                "run-a",
                                "batches_completed",
                                2L,
                                "copy_tasks_published",
                                3L,
                                "copy_tasks_reported",
                                2L),
                        Map.of(
                                "id",
                                "run-b",
                                "batches_completed",
                                1L,
                                "copy_tasks_published",
                                0L,
                                "copy_tasks_reported",
                                0L),
                        Map.of(
                                "id",
                                "run-empty",
                                "batches_completed",
                                0L,
                                "copy_tasks_published",
                                0L,
                                "copy_tasks_reported",
                                0L));

        assertThat(jdbc.queryForMap("""
                SELECT sum_lookups_reported, sum_lookup_keys, sum_lookup_refusals, sum_reported, sum_deleted,
                       sum_skipped_newer, sum_copy_tasks, sum_failures, sum_copy_tasks_reported, sum_copy_still_present
                FROM forward_targets WHERE request_id = 'req-1' AND dataset = 'orders'"""))
                .as("the stale task is not counted")
                .containsAllEntriesOf(Map.of(
                        "sum_lookups_reported",
                        1L,
                        "sum_lookup_keys",
                        4L,
                        "sum_lookup_refusals",
                        0L,
                        "sum_reported",
                        4L,
                        "sum_deleted",
                        3L,
                        "sum_skipped_newer",
                        1L,
                        "sum_copy_tasks",
                        1L,
                        "sum_failures",
                        0L,
                        "sum_copy_tasks_reported",
                        1L,
                        "sum_copy_still_present",
                        2L));
        assertThat(jdbc.queryForMap(PROFILES_TOTALS))
                .containsAllEntriesOf(Map.of("sum_reported", 0L, "sum_failures", 1L));
        assertThat(jdbc.queryForList("SELECT task_id FROM forward_resolved_tasks", String.class))
                .containsExactly("task-r");
        jdbc.execute("DROP SCHEMA " + SCHEMA + " CASCADE");
    }

    private static void ownBatch(
            JdbcTemplate jdbc,
            String run,
            String batch,
            String dataset,
            int copyTasks,
            long deleted,
            String readBack,
            long stillPresent,
            Timestamp at) {
        jdbc.update(
                INSERT_RUN_BATCH, run, batch, "task-" + batch, dataset, copyTasks, deleted, readBack, stillPresent, at);
    }

    private static Map<String, Object> totals(
            String run,
            String dataset,
            long batches,
            long deleted,
            long skippedNewer,
            long alreadyAbsent,
            long stillPresent,
            long clean,
            long rowsRemaining,
            long notSupported,
            Timestamp first,
            Timestamp last) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("run_id", run);
        row.put("dataset", dataset);
        row.put("batches", batches);
        row.put("deleted", deleted);
        row.put("skipped_newer", skippedNewer);
        row.put("already_absent", alreadyAbsent);
        row.put("still_present", stillPresent);
        row.put("clean_batches", clean);
        row.put("rows_remaining_batches", rowsRemaining);
        row.put("not_supported_batches", notSupported);
        row.put("first_at", first);
        row.put("last_at", last);
        return row;
    }
}
