package io.erasure.model.dataset;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.erasure.model.check.Allowed;
import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A registered dataset: where its rows live, how a row is keyed, which column holds the identifier
 * that makes a row deletable, where its backups and copies are, and the guardrails of its runs.
 * A run freezes the spec it started with, so this is an immutable value.
 *
 * <p>{@code namespace} is the Cassandra keyspace or PostgreSQL schema. That {@code identifierColumn}
 * and {@code conditionalColumn} exist in the live table is checked at registration by the control
 * plane through the store adapter; here they are checked to be safe identifiers.
 *
 * <p>{@code conditionalColumn} is never null. For a relational dataset an explicit
 * {@link ConditionalColumn#none()} is allowed: it is the owner's written-down choice that deletes are
 * unconditional, so a row updated after the cut-off can be deleted (the adapter documents the risk).
 *
 * <p>{@code target} says how a row's key is addressed in a store that has no tables (Redis, S3 objects,
 * an HTTP callback): a key template or a callback. It is null for tabular stores. Such datasets are
 * usually the views of copies ({@link DatasetCopy#viewOf}); there {@code namespace} and {@code table}
 * are the source's and only informative.
 *
 * <p>{@code spreadOver} (optional, {@code PT10S} to {@code P1D}) asks for a run's deletion to be paced so that it ends
 * near the end of a window of that length, which starts when validation publishes the run's tasks: never faster than
 * the store's throttle allows, and at the throttle's rate once the window is over. Forward deletions and copies are
 * never paced. Null (the default) deletes as fast as the throttle allows. At most a day, because a run's rows were
 * checked against live state before its tasks were published, and a final set older than a day is checked again.
 */
public record DatasetSpec(
        String name,
        StoreKind storeKind,
        String connectionRef,
        String namespace,
        String table,
        KeyColumns keyColumns,
        String identifierColumn,
        String identifierSource,
        ConditionalColumn conditionalColumn,
        BackupLocation backup,
        List<DatasetCopy> copies,
        DeletionLimits limits,

        @Allowed("an integer between 0 and " + DatasetSpec.MAX_PRIORITY)
        int priority,

        String schedule,
        String ownerTeam,
        @Nullable CopyTarget target,

        @Allowed("an ISO-8601 duration between PT10S and P1D (e.g. PT6H), or absent")
        @JsonInclude(JsonInclude.Include.NON_NULL)
        @Nullable
        Duration spreadOver) {

    /**
     * Fails unless the dataset's backup can hold its rows: a {@link BackupLayout#MEDUSA} or
     * {@link BackupLayout#NODETOOL_SNAPSHOT} backup holds a Cassandra cluster's SSTables, so only a Cassandra
     * dataset's. Checked where a dataset is registered and audited, not in
     * the constructor: a copy's view ({@link DatasetCopy#viewOf}) keeps its source's backup without being audited.
     */
    public void requireBackupFits() {
        if (backup.layout().holdsSSTables() && storeKind != StoreKind.CASSANDRA) {
            throw new IllegalArgumentException("backup.layout " + backup.layout() + " holds a Cassandra cluster's"
                    + " SSTables: dataset '" + name + "' is " + storeKind + ", whose backups are in the platform's"
                    + " layout");
        }
        if (backup.layout() == BackupLayout.RDS_EXPORT && storeKind != StoreKind.POSTGRES) {
            throw new IllegalArgumentException("backup.layout RDS_EXPORT holds Amazon RDS exports of PostgreSQL tables:"
                    + " dataset '" + name + "' is " + storeKind + ", whose backups are in the platform's layout");
        }
    }

    /** Nightly at 02:00 (Spring cron: second minute hour day-of-month month day-of-week). */
    public static final String DEFAULT_SCHEDULE = "0 0 2 * * *";

    public static final int DEFAULT_PRIORITY = 5;
    /** Priorities run from 0 (lowest) to 9 (most urgent). */
    public static final int MAX_PRIORITY = 9;

    /**
     * The most copies a dataset may have: every cache, index and object copy of a table, with room to spare; each
     * is a task per batch, so the bound also caps a batch's fan-out.
     */
    public static final int MAX_COPIES = 32;

    /** The shortest window a run may be spread over. */
    public static final Duration MIN_SPREAD = Duration.ofSeconds(10);
    /** The longest: a final set is re-validated once a day old; a spread run must not delete on an older check. */
    public static final Duration MAX_SPREAD = Duration.ofDays(1);

    private static final Pattern CRON_FIELD = Pattern.compile("[0-9A-Za-z*/,?#LW-]+");
    private static final Set<String> CRON_MACROS =
            Set.of("@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly");

    public DatasetSpec {
        Names.datasetName("name", name);
        Require.nonNull("storeKind (one of " + StoreKind.known() + ")", storeKind);
        Names.connectionRef("connectionRef", connectionRef);
        Names.identifier("namespace", namespace);
        Names.identifier("table", table);
        Require.nonNull("keyColumns", keyColumns);
        Names.identifier("identifierColumn", identifierColumn);
        Names.datasetName("identifierSource", identifierSource);
        if (conditionalColumn == null) {
            throw new IllegalArgumentException(
                    "conditionalColumn is required: name the updated_at (TIMESTAMP) or version"
                            + " (VERSION) column that deletes are conditioned on, or set it explicitly to none");
        }
        Require.nonNull("backup (S3 prefix and format)", backup);
        copies = copies == null ? List.of() : Require.listOf("copies", copies, MAX_COPIES);
        requireUniqueCopyNames(copies);
        Require.nonNull("limits", limits);
        Require.inRange("priority", priority, 0, MAX_PRIORITY);
        schedule = schedule == null ? DEFAULT_SCHEDULE : requireCron(schedule.trim());
        Require.nonBlank("ownerTeam", ownerTeam);
        if (storeKind.tabular()) {
            if (target != null) {
                throw new IllegalArgumentException(
                        "target is only for stores without tables (REDIS, S3_OBJECT, HTTP_CALLBACK, OPENSEARCH); a "
                                + storeKind + " dataset is addressed by namespace, table and keyColumns");
            }
        } else {
            CopyTarget.requireFits("dataset '" + name + "'", storeKind, target);
        }
        requireSpread(spreadOver);
        for (DatasetCopy copy : copies) {
            Names.datasetName(
                    "copies[" + copy.name() + "] view name (dataset name + '--' + copy name, at most 63"
                            + " characters)",
                    copy.viewName(name));
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder()
                .name(name)
                .storeKind(storeKind)
                .connectionRef(connectionRef)
                .namespace(namespace)
                .table(table)
                .keyColumns(keyColumns)
                .identifierColumn(identifierColumn)
                .identifierSource(identifierSource)
                .conditionalColumn(conditionalColumn)
                .backup(backup)
                .copies(copies)
                .limits(limits)
                .priority(priority)
                .schedule(schedule)
                .ownerTeam(ownerTeam)
                .target(target)
                .spreadOver(spreadOver);
    }

    /** True if the identifier is (part of) the partition key: a partition delete may then apply. */
    public boolean identifierInPartitionKey() {
        return keyColumns.isPartitionColumn(identifierColumn);
    }

    /** True if the identifier is part of the primary key, so forward deletion can address its rows directly. */
    public boolean identifierInPrimaryKey() {
        return keyColumns.isPrimaryKeyColumn(identifierColumn);
    }

    /** {@code "namespace"."table"} for CQL and SQL text. */
    public String quotedTable() {
        return Names.quotedQualified(namespace, table);
    }

    public Optional<DatasetCopy> copy(String copyName) {
        return copies.stream().filter(c -> c.name().equals(copyName)).findFirst();
    }

    private static void requireUniqueCopyNames(List<DatasetCopy> copies) {
        Set<String> names = new HashSet<>();
        for (DatasetCopy copy : copies) {
            if (!names.add(copy.name())) {
                throw new IllegalArgumentException(
                        "copies has two copies named '" + copy.name() + "'; copy names must be unique");
            }
        }
    }

    private static void requireSpread(@Nullable Duration spreadOver) {
        if (spreadOver != null && (spreadOver.compareTo(MIN_SPREAD) < 0 || spreadOver.compareTo(MAX_SPREAD) > 0)) {
            throw new IllegalArgumentException(
                    "spreadOver must be an ISO-8601 duration between PT10S and P1D (e.g. PT6H),"
                            + " or absent to delete as fast as the throttle allows; got " + spreadOver);
        }
    }

    private static String requireCron(String schedule) {
        if (CRON_MACROS.contains(schedule)) {
            return schedule;
        }
        String[] fields = schedule.split("\\s+");
        boolean valid = fields.length == 6;
        for (String field : fields) {
            valid &= CRON_FIELD.matcher(field).matches();
        }
        if (!valid) {
            throw new IllegalArgumentException("schedule must be a 6-field cron expression 'second minute hour"
                    + " day-of-month month day-of-week' such as '" + DEFAULT_SCHEDULE
                    + "', or a macro such as @daily; got "
                    + Require.echo(schedule));
        }
        return schedule;
    }

    /**
     * Fluent construction with the defaults: no copies, priority {@value #DEFAULT_PRIORITY}, nightly schedule, not
     * spread.
     */
    public static final class Builder {
        private @Nullable String name;
        private @Nullable StoreKind storeKind;
        private @Nullable String connectionRef;
        private @Nullable String namespace;
        private @Nullable String table;
        private @Nullable KeyColumns keyColumns;
        private @Nullable String identifierColumn;
        private @Nullable String identifierSource;
        private @Nullable ConditionalColumn conditionalColumn;
        private @Nullable BackupLocation backup;
        private @Nullable List<DatasetCopy> copies = List.of();
        private @Nullable DeletionLimits limits;
        private int priority = DEFAULT_PRIORITY;
        private @Nullable String schedule = DEFAULT_SCHEDULE;
        private @Nullable String ownerTeam;
        private @Nullable CopyTarget target;
        private @Nullable Duration spreadOver;

        private Builder() {}

        public Builder name(@Nullable String name) {
            this.name = name;
            return this;
        }

        public Builder storeKind(@Nullable StoreKind storeKind) {
            this.storeKind = storeKind;
            return this;
        }

        public Builder connectionRef(@Nullable String connectionRef) {
            this.connectionRef = connectionRef;
            return this;
        }

        public Builder namespace(@Nullable String namespace) {
            this.namespace = namespace;
            return this;
        }

        public Builder table(@Nullable String table) {
            this.table = table;
            return this;
        }

        public Builder keyColumns(@Nullable KeyColumns keyColumns) {
            this.keyColumns = keyColumns;
            return this;
        }

        public Builder identifierColumn(@Nullable String identifierColumn) {
            this.identifierColumn = identifierColumn;
            return this;
        }

        public Builder identifierSource(@Nullable String identifierSource) {
            this.identifierSource = identifierSource;
            return this;
        }

        public Builder conditionalColumn(@Nullable ConditionalColumn conditionalColumn) {
            this.conditionalColumn = conditionalColumn;
            return this;
        }

        public Builder backup(@Nullable BackupLocation backup) {
            this.backup = backup;
            return this;
        }

        public Builder copies(@Nullable List<DatasetCopy> copies) {
            this.copies = copies;
            return this;
        }

        public Builder limits(@Nullable DeletionLimits limits) {
            this.limits = limits;
            return this;
        }

        public Builder priority(int priority) {
            this.priority = priority;
            return this;
        }

        public Builder schedule(@Nullable String schedule) {
            this.schedule = schedule;
            return this;
        }

        public Builder ownerTeam(@Nullable String ownerTeam) {
            this.ownerTeam = ownerTeam;
            return this;
        }

        public Builder target(@Nullable CopyTarget target) {
            this.target = target;
            return this;
        }

        public Builder spreadOver(@Nullable Duration spreadOver) {
            this.spreadOver = spreadOver;
            return this;
        }

        // what is missing is refused by the record's constructor, naming the field and the fix
        @SuppressWarnings("NullAway")
        public DatasetSpec build() {
            return new DatasetSpec(
                    name,
                    storeKind,
                    connectionRef,
                    namespace,
                    table,
                    keyColumns,
                    identifierColumn,
                    identifierSource,
                    conditionalColumn,
                    backup,
                    copies,
                    limits,
                    priority,
                    schedule,
                    ownerTeam,
                    target,
                    spreadOver);
        }
    }
}
