package io.erasure.deletion;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.infra.LocalEngines;
import io.erasure.infra.kafka.TopicRecords;
import io.erasure.model.contract.S3Layout;
import io.erasure.model.contract.Topics;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.BackupFormat;
import io.erasure.model.dataset.ConditionalColumn;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.DeletionLimits;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchFailed;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.record.DeletionRecord;
import io.erasure.model.run.RunId;
import io.erasure.model.task.DeletionTask;
import io.erasure.model.trust.Authorization;
import io.erasure.model.trust.SigningKey;
import io.erasure.model.trust.TaskAuthority;
import io.erasure.support.trust.SpecDigest;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.kafka.core.KafkaTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * The task topic is a trust boundary: tasks produced straight to {@code erasure.deletion.tasks} by anything but the
 * platform delete nothing and are refused with the reason, while a run the control plane authorized deletes exactly its
 * final set. Two live tables, {@code profiles} (the dataset's) and {@code accounts} (another team's), rows 1..10 each,
 * all written long before the cut-off.
 */
class ForgedTaskIT extends DeletionTestSupport {

    private static final Instant NOW = Instant.now();
    private static final CutoffTimestamp CUTOFF = CutoffTimestamp.fromInstant(NOW.minus(Duration.ofHours(1)));
    /** A key pair nobody trusts, under the control plane's key id. */
    private static final SigningKey FORGER = SigningKey.of("control-plane-local",
            "MC4CAQAwBQYDK2VwBCIEIEUHjKJq8tv3PnGRRnfIRcoUP/qVi14iPX4vPt+cJmxT");

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    JsonMapper json;

    private String schema;
    private DatasetSpec profiles;

    @BeforeEach
    void liveTables() {
        schema = "f" + Math.abs(UUID.randomUUID().getMostSignificantBits() % 1_000_000);
        jdbc.execute("CREATE SCHEMA " + schema);
        for (String table : List.of("profiles", "accounts")) {
            jdbc.execute("CREATE TABLE " + schema + "." + table + " (id bigint PRIMARY KEY, updated_at timestamptz NOT NULL)");
            jdbc.update("INSERT INTO " + schema + "." + table + " SELECT g, ? FROM generate_series(1, 10) g",
                    Timestamp.from(NOW.minus(Duration.ofDays(10))));
        }
        profiles = DatasetSpec.builder().name(schema + "-profiles").storeKind(StoreKind.POSTGRES).connectionRef("pg-main")
                .namespace(schema).table("profiles").keyColumns(KeyColumns.partitionOnly("id")).identifierColumn("id")
                .identifierSource("customers").conditionalColumn(ConditionalColumn.timestamp("updated_at"))
                .backup(S3Layout.defaultBackupLocation(schema + "-profiles", BackupFormat.JSONL_GZIP))
                .limits(DeletionLimits.fraction(0.5)).ownerTeam("demo-team").build();
    }

    @Test
    void anAuthorizedRunDeletesExactlyItsFinalSet() {
        DeletionTask task = runs.authorize(task(RunId.random(), profiles, 1, 2, 3));

        publish(task);

        assertThat(single(task, BatchCompleted.class).counts().deleted()).isEqualTo(3);
        assertThat(ids("profiles")).containsExactly(4L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(ids("accounts")).hasSize(10);
    }

    @Test
    void aTaskWithoutAnAuthorizationDeletesNothing() {
        DeletionTask forged = task(RunId.random(), profiles, 1, 2);

        assertRefused(forged, "carries no authorization");
    }

    @Test
    void aTaskSignedByAnUntrustedKeyDeletesNothing() {
        DeletionTask genuine = task(RunId.random(), profiles, 1, 2);
        runs.authorize(genuine); // its final set and manifest exist; only the signature is the forger's
        DeletionTask forged = genuine.withAuthority(TaskAuthority.ofRun(FORGER.sign(unsigned(genuine, "digest")), 0));
        DeletionTask unknownKey = task(RunId.random(), profiles, 3).withAuthority(TaskAuthority.ofRun(
                SigningKey.of("intruder-1", "MC4CAQAwBQYDK2VwBCIEIEUHjKJq8tv3PnGRRnfIRcoUP/qVi14iPX4vPt+cJmxT")
                        .sign(unsigned(task(RunId.random(), profiles, 3), "digest")), 0));

        assertRefused(forged, "does not match its content");
        assertRefused(unknownKey, "signed by key 'intruder-1', which is not trusted");
    }

    @Test
    void aValidAuthorizationDoesNotCoverAnotherTableInTheTasksSpec() {
        RunId run = RunId.random();
        DeletionTask genuine = runs.authorize(task(run, profiles, 1, 2));
        // same dataset name, same run, same keys: only the table differs
        DatasetSpec otherTable = profiles.toBuilder().table("accounts").build();
        DeletionTask forged = task(run, otherTable, 1, 2).withAuthority(genuine.authority());

        assertRefused(forged, "is not the spec its authorization covers");
        assertThat(ids("accounts")).as("another team's table").hasSize(10);
    }

    @Test
    void keysOutsideTheAuthorizedFinalSetDeleteNothing() {
        RunId run = RunId.random();
        DeletionTask genuine = runs.authorize(task(run, profiles, 1, 2));
        DeletionTask forged = task(run, profiles, 1, 2, 7, 8).withAuthority(genuine.authority());

        assertRefused(forged, "2 of its 4 keys are not in part 0 of run " + run.value() + "'s authorized final set");
        assertThat(ids("profiles")).as("not even the authorized keys of the forged task").contains(1L, 2L);
    }

    @Test
    void anotherRunsAuthorizationDoesNotAuthorizeThisRun() {
        DeletionTask older = runs.authorize(task(RunId.random(), profiles, 5));
        DeletionTask forged = task(RunId.random(), profiles, 5, 6).withAuthority(older.authority());

        assertRefused(forged, "its authorization is for '" + older.runId().value() + "'");
    }

    @Test
    void aForwardTaskDeletesOnlyWithTheControlPlanesSignatureOfExactlyItsKeys() {
        String request = "req-" + UUID.randomUUID();
        DeletionTask unsigned = DeletionTask.forward(request, profiles, keys(1, 2), CUTOFF, 5);
        assertRefused(unsigned, "carries no authorization");

        DeletionTask signedForOthers = AuthorizedRuns.CONTROL_PLANE_TASKS.sign(DeletionTask.forward(request, profiles,
                keys(9), CUTOFF, 5));
        DeletionTask moreKeys = DeletionTask.forward(request, profiles, keys(1, 2), CUTOFF, 5)
                .withAuthority(signedForOthers.authority());
        assertRefused(moreKeys, "its keys are not the keys its authorization covers");

        DeletionTask genuine = AuthorizedRuns.CONTROL_PLANE_TASKS.sign(DeletionTask.forward(request, profiles, keys(1, 2),
                CUTOFF, 5));
        publish(genuine);
        assertThat(single(genuine, BatchCompleted.class).counts().deleted()).isEqualTo(2);
        assertThat(ids("profiles")).containsExactly(3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
    }

    @Test
    void aCopyTaskDeletesOnlyWithTheDeletionServicesSignature() {
        // a "copy" that is another team's table: only the deletion service derives copy tasks, after their source
        DatasetSpec withCopy = profiles.toBuilder().copies(List.of(new DatasetCopy("shadow", StoreKind.POSTGRES, "pg-main",
                new CopyTarget.TableMapping(schema, "accounts", Map.of("id", "id"))))).build();
        DeletionTask source = task(RunId.random(), withCopy, 1, 2);
        DeletionTask copy = DeletionTask.forCopy(source, withCopy.copies().get(0), keys(1, 2));

        assertRefused(copy, "carries no authorization");
        assertRefused(AuthorizedRuns.CONTROL_PLANE_TASKS.sign(copy), "which is trusted for [RUN, FORWARD, CONTROL] but not"
                + " for COPY");
        assertThat(ids("accounts")).hasSize(10);
    }

    private void assertRefused(DeletionTask forged, String reason) {
        List<Long> profilesBefore = ids("profiles");
        publish(forged);

        // (a task refused twice, for two reasons, is reported twice: the one with this reason is looked for)
        List<BatchFailed> failures = TopicRecords.read(LocalEngines.kafka().bootstrapServers(), Topics.RUN_EVENTS,
                        value -> json.readValue(value, EventEnvelope.class),
                        e -> e.payload() instanceof BatchFailed f && f.taskId().equals(forged.taskId())
                                && f.reason().contains(reason), 1, Duration.ofSeconds(60))
                .stream().map(e -> (BatchFailed) e.payload()).toList();
        assertThat(failures).as("refused with the reason '" + reason + "'").isNotEmpty().allSatisfy(failed -> {
            assertThat(failed.reason()).contains("refused, nothing deleted");
            assertThat(failed.retryable()).isFalse();
        });
        assertThat(ids("profiles")).as("nothing deleted").isEqualTo(profilesBefore);
        assertThat(ids("accounts")).hasSize(10);
        assertThat(records(forged)).as("nothing logged as deleted").isEmpty();
    }

    private static Authorization unsigned(DeletionTask task, String setDigest) {
        return Authorization.unsigned(Authorization.Kind.RUN, task.runId().value(), task.dataset(),
                SpecDigest.of(task.spec()), setDigest, task.cutoff().micros(), "APPROVED", "mallory", Instant.now());
    }

    private static List<Map<String, Object>> keys(long... ids) {
        return LongStream.of(ids).<Map<String, Object>>mapToObj(id -> Map.of("id", id)).toList();
    }

    private static DeletionTask task(RunId run, DatasetSpec spec, long... ids) {
        List<Map<String, Object>> keys = LongStream.of(ids).<Map<String, Object>>mapToObj(id -> Map.of("id", id)).toList();
        return DeletionTask.forRun(run, spec, keys, CUTOFF);
    }

    private void publish(DeletionTask task) {
        try {
            kafka.send(Topics.DELETION_TASKS, Topics.taskKey(task), json.writeValueAsString(task)).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private List<Long> ids(String table) {
        return jdbc.queryForList("SELECT id FROM " + schema + "." + table + " ORDER BY id", Long.class);
    }

    private <P> P single(DeletionTask task, Class<P> type) {
        List<P> events = TopicRecords.read(LocalEngines.kafka().bootstrapServers(), Topics.RUN_EVENTS,
                        value -> json.readValue(value, EventEnvelope.class),
                        e -> type.isInstance(e.payload()) && task.taskId().equals(taskIdOf(e.payload())), 1,
                        Duration.ofSeconds(60))
                .stream().map(e -> type.cast(e.payload())).toList();
        assertThat(events).hasSize(1);
        return events.get(0);
    }

    private static String taskIdOf(Object payload) {
        return payload instanceof BatchCompleted completed ? completed.taskId()
                : payload instanceof BatchFailed failed ? failed.taskId() : null;
    }

    private List<DeletionRecord> records(DeletionTask task) {
        return TopicRecords.read(LocalEngines.kafka().bootstrapServers(), Topics.DELETION_LOG, this::logged,
                r -> task.taskId().equals(r.taskId()), 0, Duration.ofSeconds(2));
    }
}
