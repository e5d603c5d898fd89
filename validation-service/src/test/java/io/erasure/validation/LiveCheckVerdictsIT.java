package io.erasure.validation;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.model.candidate.Candidate;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.identifier.IdentifierSource;
import io.erasure.validation.check.CandidateChecks;
import io.erasure.validation.check.DropReason;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 19: candidates are checked as key sets (one multi-key read per store and batch where the store can), and
 * every candidate gets the verdict it gets when checked alone. Identifiers 1..12 in a live PostgreSQL source; the
 * rows in a PostgreSQL and in a Cassandra table: 3 reactivated, 4 within its grace period, 9 unknown to the
 * source, 5 gone, 6 written after the cut-off, the rest still deletable.
 */
class LiveCheckVerdictsIT extends ValidationTestSupport {

    private static final Instant NOW = Instant.now();
    private static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(NOW.minus(Duration.ofHours(1)));
    private static final Map<Long, String> EXPECTED = expected();

    @Autowired
    CandidateChecks checks;

    private String schema;
    private IdentifierSource source;
    private List<Candidate> candidates;

    @BeforeEach
    void liveState() {
        schema = "lc" + Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000);
        jdbc.execute("CREATE SCHEMA " + schema);
        jdbc.execute("CREATE TABLE " + schema + ".customers (customer_id bigint PRIMARY KEY, deleted_at timestamptz)");
        jdbc.execute("CREATE TABLE " + schema + ".profiles (customer_id bigint PRIMARY KEY, name text,"
                + " updated_at timestamptz NOT NULL)");
        cassandra()
                .execute("CREATE KEYSPACE " + schema
                        + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        cassandra().execute("CREATE TABLE " + schema + ".profiles (customer_id bigint PRIMARY KEY, name text)");
        Timestamp longAgo = Timestamp.from(NOW.minus(Duration.ofDays(10)));
        candidates = new ArrayList<>();
        for (long id = 1; id <= 12; id++) {
            if (id != 9) {
                Timestamp deletedAt =
                        id == 3 ? null : id == 4 ? Timestamp.from(NOW.minus(Duration.ofDays(1))) : longAgo;
                jdbc.update("INSERT INTO " + schema + ".customers VALUES (?, ?)", id, deletedAt);
            }
            if (id != 5) {
                Instant written = id == 6 ? CUTOFF.toInstant().plusSeconds(60) : longAgo.toInstant();
                jdbc.update(
                        "INSERT INTO " + schema + ".profiles VALUES (?, ?, ?)",
                        id,
                        "name-" + id,
                        Timestamp.from(written));
                cassandra()
                        .execute("INSERT INTO " + schema + ".profiles (customer_id, name) VALUES (" + id + ", 'name-"
                                + id + "') USING TIMESTAMP " + CutoffTimestamp.toMicros(written));
            }
            candidates.add(new Candidate(Map.of("customer_id", id), Long.toString(id), null));
        }
        source = new IdentifierSource(
                schema + "-customers",
                StoreKind.POSTGRES,
                "pg-main",
                schema,
                "customers",
                "customer_id",
                "deleted_at",
                S3Layout.defaultBackupLocation(schema + "-customers", BackupFormat.JSONL_GZIP),
                Duration.ofDays(3));
    }

    @Test
    void aPostgresDatasetChecksABatchInTwoKeySetReadsWithTheVerdictsOfOneByOne() {
        DatasetSpec spec = dataset(StoreKind.POSTGRES, "pg-main", ConditionalColumn.timestamp("updated_at"));

        CandidateChecks.Checked batch = checks.check(spec, source, CUTOFF, candidates);

        assertThatVerdictsAreThoseOfOneByOne(spec, batch);
        assertThat(batch.reads())
                .as("two statements for the identifiers, two for the rows, whatever the batch size")
                .isEqualTo(4);
    }

    @Test
    void aCassandraDatasetChecksABatchInKeySetReadsWithTheVerdictsOfOneByOne() {
        DatasetSpec spec = dataset(StoreKind.CASSANDRA, "cass-main", ConditionalColumn.none());

        CandidateChecks.Checked batch = checks.check(spec, source, CUTOFF, candidates);

        assertThatVerdictsAreThoseOfOneByOne(spec, batch);
        // a single-column partition key: the rows still deletable are read in one IN statement (up to 100 keys)
        assertThat(batch.reads())
                .as("two statements for the identifiers, one key-set statement for the rows")
                .isEqualTo(3);
    }

    private void assertThatVerdictsAreThoseOfOneByOne(DatasetSpec spec, CandidateChecks.Checked batch) {
        Map<Long, String> alone = new LinkedHashMap<>();
        Map<DropReason, Long> droppedAlone = new EnumMap<>(DropReason.class);
        for (Candidate candidate : candidates) {
            CandidateChecks.Checked one = checks.check(spec, source, CUTOFF, List.of(candidate));
            String verdict = one.kept().isEmpty()
                    ? one.dropped().keySet().iterator().next().key()
                    : "kept";
            alone.put(((Number) candidate.key().get("customer_id")).longValue(), verdict);
            one.dropped().forEach((reason, n) -> droppedAlone.merge(reason, n, Long::sum));
        }
        assertThat(alone).as("each candidate checked alone").isEqualTo(EXPECTED);
        assertThat(batch.kept())
                .as("the batch keeps exactly the candidates kept alone, in order")
                .extracting(c -> ((Number) c.key().get("customer_id")).longValue())
                .containsExactlyElementsOf(EXPECTED.entrySet().stream()
                        .filter(e -> e.getValue().equals("kept"))
                        .map(Map.Entry::getKey)
                        .toList());
        assertThat(batch.dropped())
                .as("and drops the others for the same reasons")
                .isEqualTo(droppedAlone);
    }

    private DatasetSpec dataset(StoreKind kind, String connection, ConditionalColumn conditional) {
        String name = schema + "-" + kind.name().toLowerCase(Locale.ROOT) + "-profiles";
        return DatasetSpec.builder()
                .name(name)
                .storeKind(kind)
                .connectionRef(connection)
                .namespace(schema)
                .table("profiles")
                .keyColumns(KeyColumns.partitionOnly("customer_id"))
                .identifierColumn("customer_id")
                .identifierSource(source.name())
                .conditionalColumn(conditional)
                .backup(S3Layout.defaultBackupLocation(name, BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5))
                .ownerTeam("demo-team")
                .build();
    }

    private static Map<Long, String> expected() {
        Map<Long, String> verdicts = new LinkedHashMap<>();
        for (long id = 1; id <= 12; id++) {
            verdicts.put(
                    id,
                    switch ((int) id) {
                        case 3, 4 -> DropReason.REACTIVATED.key();
                        case 9 -> DropReason.IDENTIFIER_NOT_FOUND.key();
                        case 5 -> DropReason.ALREADY_ABSENT.key();
                        case 6 -> DropReason.MODIFIED_SINCE_BACKUP.key();
                        default -> "kept";
                    });
        }
        return verdicts;
    }
}
