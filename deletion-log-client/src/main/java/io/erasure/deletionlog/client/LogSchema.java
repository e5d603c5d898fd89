package io.erasure.deletionlog.client;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The tables of the {@code deletion_log} keyspace. Every record is written to three tables with the
 * same deterministic primary key built from its record id, so a re-delivered record overwrites itself:
 * <ul>
 *   <li>{@code records_by_key}: partition (dataset, key hash), one row per record id: "was this key deleted?"</li>
 *   <li>{@code records_by_time}: partition (dataset, hour of deletion), clustered by (deleted_at, record id)</li>
 *   <li>{@code records_by_run}: partition (run or request id, shard = first hex digit of the record id), clustered by
 *       record id, so a run of millions of rows is spread over {@value #RUN_SHARDS} partitions</li>
 * </ul>
 * The payload (primary key and columns) is encrypted with the dataset's current key ({@code dataset_keys});
 * {@code purged_keys}, {@code purged_datasets} and {@code purges} record legal purges of the log itself.
 * {@code frozen_specs} (by origin) and {@code frozen_specs_by_dataset} keep the spec each run or request deleted each
 * dataset under ({@link FrozenSpecs}), which recoveries and reapplications use instead of one a caller sends.
 * Record tables expire by TTL (default 30 days after the delete); the purge history does not expire.
 *
 * <p>Columns added to the record tables after their first release ({@code anonymised}: the record of a forward
 * deletion's anonymisation, holding only the cleared columns; {@code kept_newer}: a record whose row a newer write
 * kept alive, see {@code DeletionRecord.keptNewer}) are added to existing keyspaces by idempotent
 * {@code ALTER TABLE ... ADD IF NOT EXISTS}; rows written before read such a column as null. Readers prepare
 * statements that name the new columns, so deletion-log-service (which runs this DDL) is deployed before them.
 */
public final class LogSchema {

    public static final String KEYSPACE = "deletion_log";
    public static final String BY_KEY = KEYSPACE + ".records_by_key";
    public static final String BY_TIME = KEYSPACE + ".records_by_time";
    public static final String BY_RUN = KEYSPACE + ".records_by_run";
    public static final String DATASET_KEYS = KEYSPACE + ".dataset_keys";
    public static final String PURGED_KEYS = KEYSPACE + ".purged_keys";
    public static final String PURGED_DATASETS = KEYSPACE + ".purged_datasets";
    public static final String PURGES = KEYSPACE + ".purges";
    /** The spec each origin deleted each dataset under ({@link FrozenSpecs}), kept as long as the records. */
    public static final String FROZEN_SPECS = KEYSPACE + ".frozen_specs";
    /** The same specs by dataset: the revisions a dataset's records in the log were deleted under. */
    public static final String FROZEN_SPECS_BY_DATASET = KEYSPACE + ".frozen_specs_by_dataset";

    public static final int RUN_SHARDS = 16;

    static final String RECORD_COLUMNS =
            "record_id, dataset, key_hash, deleted_at, run_id, request_id, task_id, batch_id,"
                    + " cutoff_micros, key_version, payload, retained_ref, anonymised, kept_newer";

    private static final String RECORD_COLUMN_TYPES =
            "record_id text, dataset text, key_hash text, deleted_at timestamp,"
                    + " run_id text, request_id text, task_id text, batch_id text, cutoff_micros bigint,"
                    + " key_version int, payload blob, retained_ref text, anonymised boolean, kept_newer boolean, ";
    // schema changes wait for agreement between nodes, far longer than a normal request
    private static final Duration DDL_TIMEOUT = Duration.ofSeconds(30);

    private LogSchema() {}

    /** The DDL, each statement idempotent; the keyspace itself must exist. */
    public static List<String> statements(Duration ttl) {
        List<String> statements = new ArrayList<>(creates(ttl));
        statements.addAll(addedColumns(KEYSPACE));
        return List.copyOf(statements);
    }

    /**
     * The columns added to the record tables of {@code quotedKeyspace} since they were first created, each an
     * idempotent {@code ALTER TABLE ... ADD IF NOT EXISTS}: a table created by {@link #statements} already has them, an
     * older one gets them.
     */
    static List<String> addedColumns(String quotedKeyspace) {
        List<String> alters = new ArrayList<>();
        for (String table : List.of(BY_KEY, BY_TIME, BY_RUN)) {
            alters.add("ALTER TABLE " + inKeyspace(quotedKeyspace, table) + " ADD IF NOT EXISTS anonymised boolean");
            alters.add("ALTER TABLE " + inKeyspace(quotedKeyspace, table) + " ADD IF NOT EXISTS kept_newer boolean");
        }
        return alters;
    }

    private static List<String> creates(Duration ttl) {
        long seconds = requireTtl(ttl);
        String expiring = " WITH default_time_to_live = " + seconds;
        return List.of(
                "CREATE TABLE IF NOT EXISTS " + BY_KEY + " (" + RECORD_COLUMN_TYPES
                        + "PRIMARY KEY ((dataset, key_hash), record_id))" + expiring,
                "CREATE TABLE IF NOT EXISTS " + BY_TIME + " (" + RECORD_COLUMN_TYPES + "hour timestamp,"
                        + " PRIMARY KEY ((dataset, hour), deleted_at, record_id))" + expiring
                        + " AND compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit':"
                        + " 'DAYS', 'compaction_window_size': 1}",
                "CREATE TABLE IF NOT EXISTS " + BY_RUN + " (" + RECORD_COLUMN_TYPES + "origin_id text, shard int,"
                        + " PRIMARY KEY ((origin_id, shard), record_id))" + expiring,
                "CREATE TABLE IF NOT EXISTS " + DATASET_KEYS + " (dataset text, version int, wrapped_key blob,"
                        + " created_at timestamp, PRIMARY KEY (dataset, version)) WITH CLUSTERING"
                        + " ORDER BY (version DESC)",
                "CREATE TABLE IF NOT EXISTS " + PURGED_KEYS + " (dataset text, key_hash text, purged_at timestamp,"
                        + " purged_by text, PRIMARY KEY ((dataset, key_hash)))" + expiring,
                "CREATE TABLE IF NOT EXISTS " + FROZEN_SPECS + " (origin_id text, dataset text, spec_digest text,"
                        + " spec text, copy_of text, frozen_at timestamp, PRIMARY KEY ((origin_id), dataset,"
                        + " spec_digest))"
                        + expiring,
                "CREATE TABLE IF NOT EXISTS " + FROZEN_SPECS_BY_DATASET + " (dataset text, spec_digest text, spec text,"
                        + " frozen_at timestamp, PRIMARY KEY ((dataset), spec_digest))" + expiring,
                "CREATE TABLE IF NOT EXISTS " + PURGED_DATASETS + " (dataset text PRIMARY KEY, purged_at timestamp,"
                        + " purged_by text)",
                "CREATE TABLE IF NOT EXISTS " + PURGES
                        + " (dataset text, purged_at timestamp, purge_id text, scope text,"
                        + " key_hash text, purged_by text, reason text, records_removed int,"
                        + " PRIMARY KEY (dataset, purged_at, purge_id)) WITH CLUSTERING"
                        + " ORDER BY (purged_at DESC, purge_id ASC)");
    }

    /**
     * Creates the tables that are missing and adds missing columns to existing ones; an existing table keeps its
     * settings (changing a TTL is an operator's ALTER).
     */
    public static void create(CqlSession session, Duration ttl) {
        for (String cql : statements(ttl)) {
            session.execute(SimpleStatement.newInstance(cql).setTimeout(DDL_TIMEOUT));
        }
    }

    /**
     * {@code table} (one of the constants above) in another keyspace, e.g. a reader configured with its own keyspace
     * name.
     */
    static String inKeyspace(String quotedKeyspace, String table) {
        return quotedKeyspace + table.substring(KEYSPACE.length());
    }

    static long requireTtl(Duration ttl) {
        if (ttl == null || ttl.toSeconds() < 1 || ttl.toSeconds() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("erasure.deletion-log.ttl must be between 1s and ~68 years, got " + ttl);
        }
        return ttl.toSeconds();
    }
}
