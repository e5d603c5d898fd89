package io.erasure.controlplane.forward;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.erasure.controlplane.ControlPlaneTestSupport;
import io.erasure.infra.LocalEngines;
import io.erasure.infra.kafka.TopicRecords;
import io.erasure.model.contract.Topics;
import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.KeyColumns;
import io.erasure.model.dataset.StoreKind;
import io.erasure.model.event.BatchCompleted;
import io.erasure.model.event.BatchCounts;
import io.erasure.model.event.BatchFailed;
import io.erasure.model.event.EventEnvelope;
import io.erasure.model.event.EventPayload;
import io.erasure.model.event.ForwardDeletionRequested;
import io.erasure.model.event.LookupResolution;
import io.erasure.model.event.LookupResolved;
import io.erasure.model.event.ReadBackResult;
import io.erasure.model.key.DeterministicId;
import io.erasure.model.task.DeletionTask;
import io.micrometer.core.instrument.MeterRegistry;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.kafka.core.KafkaTemplate;

/**
 * Issue 10: forward deletion, driven the way upstream systems and the deletion service do it: events on
 * {@code erasure.forward.requests} and batch results on {@code erasure.run.events}, tasks read back from
 * {@code erasure.deletion.tasks}.
 */
class ForwardDeletionIT extends ControlPlaneTestSupport {

    private static final String COUNTED_SUMS = """
            SELECT sum(deleted) AS deleted, sum(already_absent) AS absent, count(failure) AS failures
            FROM forward_batches WHERE request_id = ? AND dataset = ? AND counted""";

    @Autowired
    KafkaTemplate<String, String> kafka;

    @Autowired
    DeletionRequests requests;

    @Autowired
    ForwardReconciler reconciler;

    @Autowired
    ForwardMetrics metrics;

    @Autowired
    MeterRegistry meters;

    @Autowired
    Clock clock;

    @Test
    void anEventTombstonesAtOnceAndPublishesTasksForTheAddressableDatasetsOnly() {
        String source = registerSource();
        DatasetSpec profiles = registerOn(source, UnaryOperator.identity());
        DatasetSpec orders = registerOn(
                source, spec -> spec.table("orders").keyColumns(KeyColumns.of(List.of("order_id"), List.of())));

        EventEnvelope event = request(source, "42", 1, Map.of());
        publish(event);
        String requestId = DeletionRequests.idFor(event.eventId());
        DeletionRequest request = awaitRequest(requestId);
        assertThat(request.state()).isEqualTo(RequestState.TOMBSTONED);
        assertThat(request.tombstonedAt()).isEqualTo(((ForwardDeletionRequested) event.payload()).tombstonedAt());

        List<DeletionTask> tasks = tasksOf(requestId, 2);
        assertThat(tasks).extracting(DeletionTask::dataset).containsExactlyInAnyOrder(profiles.name(), orders.name());
        DeletionTask task = taskOf(tasks, profiles.name());
        assertThat(task.keys()).containsExactly(Map.of("customer_id", 42));
        assertThat(task.cutoff().toInstant()).isEqualTo(request.tombstonedAt());
        assertThat(task.forward()).isTrue();
        assertThat(task.lookup()).isFalse();
        DeletionTask lookup = taskOf(tasks, orders.name());
        assertThat(lookup.lookup()).as("orders are found by customer_id first").isTrue();
        assertThat(lookup.keys()).containsExactly(Map.of("customer_id", 42));
        assertThat(lookup.cutoff()).isEqualTo(task.cutoff());

        RequestView view = view(requestId);
        assertThat(target(view, orders.name()).outcome()).isEqualTo(TargetOutcome.PENDING);
        assertThat(target(view, orders.name()).lookup()).isTrue();
        assertThat(target(view, profiles.name()).outcome()).isEqualTo(TargetOutcome.PENDING);
        assertThat(target(view, profiles.name()).lookup()).isFalse();
    }

    @Test
    void aLookupTargetWaitsForExactlyTheTasksItsLookupPublished() {
        String source = registerSource();
        DatasetSpec profiles = registerOn(source, UnaryOperator.identity());
        DatasetSpec orders = registerOn(
                source, spec -> spec.table("orders").keyColumns(KeyColumns.of(List.of("order_id"), List.of())));
        EventEnvelope event = request(source, "21", 1, Map.of());
        publish(event);
        String requestId = DeletionRequests.idFor(event.eventId());
        List<DeletionTask> tasks = tasksOf(requestId, 2);
        DeletionTask lookup = taskOf(tasks, orders.name());
        DeletionTask resolved =
                DeletionTask.resolvedFrom(lookup, List.of(Map.of("order_id", 1), Map.of("order_id", 2)));
        DeletionTask stale = DeletionTask.resolvedFrom(lookup, List.of(Map.of("order_id", 3)));

        // the resolved task can report before its lookup does, and a stale one (an earlier, crashed lookup) reports too
        batchEvent(sourceBatch(resolved, 2, 0));
        batchEvent(sourceBatch(stale, 1, 0));
        batchEvent(sourceBatch(taskOf(tasks, profiles.name()), 1, 0));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> target(view(requestId), profiles.name()).confirmed());
        assertThat(target(view(requestId), orders.name()).outcome())
                .as("its lookup has not reported")
                .isEqualTo(TargetOutcome.PENDING);
        assertThat(view(requestId).state()).isEqualTo(RequestState.TOMBSTONED);

        // a resolution reported for a task that is not one of the target's lookups (sealed by a deletion key) says
        // nothing about the target: counted, it would let the request be PURGED before its real lookup ran
        DeletionTask notALookup = DeletionTask.resolvedFrom(lookup, List.of(Map.of("order_id", 99)));
        batchEvent(new LookupResolved(
                orders.name(),
                notALookup.taskId(),
                notALookup.batchId(0),
                requestId,
                new LookupResolution(List.of(), 0, null)));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> jdbc.queryForObject(
                                "SELECT count(*) FROM forward_batches WHERE request_id = ? AND batch_id = ?",
                                Long.class,
                                requestId,
                                notALookup.batchId(0))
                        == 1);
        assertThat(target(view(requestId), orders.name()).outcome()).isEqualTo(TargetOutcome.PENDING);
        assertThat(view(requestId).state()).isEqualTo(RequestState.TOMBSTONED);

        long purgedBefore = meters.get(ForwardMetrics.TIME_TO_PURGE).timer().count();
        batchEvent(lookupResolved(lookup, new LookupResolution(List.of(resolved.taskId()), 2, null)));
        RequestView purged = awaitState(requestId, RequestState.PURGED);
        assertThat(meters.get(ForwardMetrics.TIME_TO_PURGE).timer().count())
                .as("its time from TOMBSTONED to PURGED is recorded")
                .isGreaterThan(purgedBefore);
        ForwardTarget target = target(purged, orders.name());
        assertThat(target.outcome()).isEqualTo(TargetOutcome.DELETED);
        assertThat(target.keys()).as("the rows the lookup found").isEqualTo(2);
        assertThat(target.deleted()).as("the stale task is not counted").isEqualTo(2);
    }

    @Test
    void aLookupTheStoreRefusesLeavesTheDatasetToTheAuditWithTheStoresReason() {
        String source = registerSource();
        DatasetSpec profiles = registerOn(source, UnaryOperator.identity());
        DatasetSpec orders = registerOn(
                source, spec -> spec.table("orders").keyColumns(KeyColumns.of(List.of("order_id"), List.of())));
        EventEnvelope event = request(source, "23", 1, Map.of());
        publish(event);
        String requestId = DeletionRequests.idFor(event.eventId());
        List<DeletionTask> tasks = tasksOf(requestId, 2);

        // reported as a deletion service older than LookupResolved does: a batch of zeros carrying the resolution
        batchEvent(olderLookupBatch(
                taskOf(tasks, orders.name()),
                LookupResolution.refused(
                        "no index starts with orders.customer_id: CREATE INDEX ON orders (customer_id)")));
        batchEvent(sourceBatch(taskOf(tasks, profiles.name()), 1, 0));
        RequestView purged = awaitState(requestId, RequestState.PURGED);
        ForwardTarget target = target(purged, orders.name());
        assertThat(target.outcome()).isEqualTo(TargetOutcome.LEFT_TO_AUDIT);
        assertThat(target.blocking()).isFalse();
        assertThat(target.detail())
                .isEqualTo("left to the nightly audit: no index starts with orders.customer_id:"
                        + " CREATE INDEX ON orders (customer_id)");
    }

    @Test
    void anAnonymisingDatasetTheStoreCannotLookUpFailsInsteadOfBeingLeftToTheAudit() {
        String source = registerSource();
        DatasetSpec orders = registerOn(
                source, spec -> spec.table("orders").keyColumns(KeyColumns.of(List.of("order_id"), List.of())));
        as("owner")
                .put()
                .uri("/api/datasets/" + orders.name() + "/forward-policy")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"action\": \"ANONYMISE\", \"clearColumns\": [\"email\"]}")
                .exchange()
                .expectStatus()
                .isOk();
        EventEnvelope event = request(source, "27", 1, Map.of());
        publish(event);
        String requestId = DeletionRequests.idFor(event.eventId());
        DeletionTask lookup = tasksOf(requestId, 1).get(0);
        assertThat(lookup.clearColumns()).containsExactly("email");

        batchEvent(lookupResolved(lookup, LookupResolution.refused("no usable index starts with customer_id")));
        ForwardTarget target = await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> target(view(requestId), orders.name()), t -> t.outcome() != TargetOutcome.PENDING);
        assertThat(target.outcome())
                .as("runs do not anonymise: nobody else would")
                .isEqualTo(TargetOutcome.FAILED);
        assertThat(target.detail()).isEqualTo("cannot be anonymised: no usable index starts with customer_id");
        assertThat(view(requestId).state()).isEqualTo(RequestState.TOMBSTONED);
    }

    @Test
    void anAnonymisingPolicyNamesItsColumnsAndItsTargetReadsAnonymised() {
        String source = registerSource();
        DatasetSpec profiles = registerOn(source, UnaryOperator.identity());
        String policy = "/api/datasets/" + profiles.name() + "/forward-policy";
        as("owner")
                .put()
                .uri(policy)
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"action\": \"ANONYMISE\"}")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody(String.class)
                .value(body -> assertThat(body).contains("clearColumns"));
        as("owner")
                .put()
                .uri(policy)
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"action\": \"ANONYMISE\", \"clearColumns\": [\"customer_id\"]}")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody(String.class)
                .value(body -> assertThat(body).contains("key column"));
        as("owner")
                .put()
                .uri(policy)
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"action\": \"ANONYMISE\", \"clearColumns\": [\"email\", \"name\"]}")
                .exchange()
                .expectStatus()
                .isOk();
        Map<?, ?> read = as("viewer")
                .get()
                .uri(policy)
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(Map.class)
                .getResponseBody();
        assertThat(read.get("clearColumns")).isEqualTo(List.of("email", "name"));

        EventEnvelope event = request(source, "25", 1, Map.of());
        publish(event);
        String requestId = DeletionRequests.idFor(event.eventId());
        DeletionTask task = tasksOf(requestId, 1).get(0);
        assertThat(task.clearColumns()).containsExactly("email", "name");
        assertThat(task.taskId())
                .as("an anonymisation is another effect than a delete")
                .isNotEqualTo(DeletionTask.forward(requestId, profiles, task.keys(), task.cutoff(), task.priority())
                        .taskId());

        batchEvent(sourceBatch(task, 1, 0));
        RequestView purged = awaitState(requestId, RequestState.PURGED);
        assertThat(target(purged, profiles.name()).outcome()).isEqualTo(TargetOutcome.ANONYMISED);
        assertThat(target(purged, profiles.name()).clearColumns()).containsExactly("email", "name");
    }

    @Test
    void aDuplicateEventHasOneEffectAndAnOlderVersionAfterANewerOneIsDropped() {
        String source = registerSource();
        DatasetSpec profiles = registerOn(source, UnaryOperator.identity());
        double duplicates = metrics.intakeCount(IntakeOutcome.DUPLICATE);
        double stale = metrics.intakeCount(IntakeOutcome.STALE);

        EventEnvelope v2 = request(source, "7", 2, Map.of());
        publish(v2);
        publish(v2);
        EventEnvelope v1 = request(source, "7", 1, Map.of());
        publish(v1);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> metrics.intakeCount(IntakeOutcome.STALE) == stale + 1
                        && metrics.intakeCount(IntakeOutcome.DUPLICATE) == duplicates + 1);

        assertThat(requests.list(null, source, "7", 10))
                .singleElement()
                .satisfies(r -> assertThat(r.version()).isEqualTo(2));
        assertThat(requests.find(DeletionRequests.idFor(v1.eventId()))).isEmpty();
        List<DeletionTask> tasks = tasksOf(DeletionRequests.idFor(v2.eventId()), 1);
        assertThat(tasks).hasSize(1).extracting(DeletionTask::dataset).containsExactly(profiles.name());
    }

    @Test
    void purgedOnlyOnceEverySourceBatchAndEveryCopyTaskHasReported() {
        String source = registerSource();
        DatasetSpec profiles = registerOn(
                source,
                spec -> spec.copies(List.of(new DatasetCopy(
                        "cache", StoreKind.REDIS, "redis-main", new CopyTarget.KeyTemplate("profile:{customer_id}")))));
        String children = registerSource();
        DatasetSpec orders = registerOn(
                children,
                spec -> spec.table("orders")
                        .keyColumns(KeyColumns.partitionOnly("order_id"))
                        .identifierColumn("order_id"));

        EventEnvelope event = request(source, "9", 1, Map.of(children, List.of("901", "902")));
        publish(event);
        String requestId = DeletionRequests.idFor(event.eventId());
        List<DeletionTask> tasks = tasksOf(requestId, 2);
        DeletionTask profileTask = taskOf(tasks, profiles.name());
        DeletionTask orderTask = taskOf(tasks, orders.name());
        assertThat(orderTask.keys()).containsExactlyInAnyOrder(Map.of("order_id", 901), Map.of("order_id", 902));

        batchEvent(sourceBatch(profileTask, 1, 1));
        batchEvent(sourceBatch(orderTask, 2, 0));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> target(view(requestId), orders.name()).confirmed());
        assertThat(view(requestId).state())
                .as("the profile's cache copy has not reported")
                .isEqualTo(RequestState.TOMBSTONED);
        assertThat(target(view(requestId), profiles.name()).outcome()).isEqualTo(TargetOutcome.PENDING);

        batchEvent(copyBatch(profiles, profileTask));
        batchEvent(copyBatch(profiles, profileTask)); // redelivered
        RequestView purged = awaitState(requestId, RequestState.PURGED);
        assertThat(target(purged, profiles.name()).outcome()).isEqualTo(TargetOutcome.DELETED);
        assertThat(target(purged, profiles.name()).copyTasksReported()).isEqualTo(1);
        assertThat(target(purged, orders.name()).deleted()).isEqualTo(2);
        assertThat(purged.purgedAt()).isNotNull();
    }

    @Test
    void aLookupTargetOfManyTasksCountsEachBatchOnceWhateverTheOrderRedeliveriesAndReplacedFailures() {
        String source = registerSource();
        DatasetSpec profiles = registerOn(source, UnaryOperator.identity());
        DatasetSpec orders = registerOn(
                source, spec -> spec.table("orders").keyColumns(KeyColumns.of(List.of("order_id"), List.of())));
        EventEnvelope event = request(source, "77", 1, Map.of());
        publish(event);
        String requestId = DeletionRequests.idFor(event.eventId());
        List<DeletionTask> tasks = tasksOf(requestId, 2);
        DeletionTask lookup = taskOf(tasks, orders.name());
        List<DeletionTask> resolved = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            resolved.add(DeletionTask.resolvedFrom(lookup, List.of(Map.of("order_id", 1_000 + i))));
        }
        long deleted = resolved.stream().mapToLong(ForwardDeletionIT::deletedOf).sum();

        // half report before their lookup (some twice), with a stale task of an earlier, crashed lookup
        for (int i = 0; i < 150; i++) {
            batchEvent(sourceBatch(resolved.get(i), deletedOf(resolved.get(i)), 0));
            if (i % 7 == 0) {
                batchEvent(sourceBatch(resolved.get(i), deletedOf(resolved.get(i)), 0));
            }
        }
        batchEvent(sourceBatch(DeletionTask.resolvedFrom(lookup, List.of(Map.of("order_id", 5))), 1, 0));
        batchEvent(sourceBatch(taskOf(tasks, profiles.name()), 1, 0));
        batchEvent(lookupResolved(
                lookup,
                new LookupResolution(resolved.stream().map(DeletionTask::taskId).toList(), 300, null)));
        // the rest after it; ten fail for good first, then succeed on redelivery
        for (int i = 150; i < 160; i++) {
            failedEvent(new BatchFailed(
                    orders.name(),
                    resolved.get(i).taskId(),
                    resolved.get(i).batchId(0),
                    requestId,
                    "timeout " + i,
                    false));
        }
        // the target fails at the first failure read; the others may still be on their way (other partitions)
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            ForwardTarget failing = target(view(requestId), orders.name());
            return failing.outcome() == TargetOutcome.FAILED
                    && failing.detail() != null
                    && IntStream.range(150, 160).allMatch(i -> failing.detail().contains("timeout " + i));
        });
        assertThat(target(view(requestId), orders.name()).detail().split("; "))
                .as("every failure once")
                .hasSize(10);
        for (int i = 150; i < 300; i++) {
            batchEvent(sourceBatch(resolved.get(i), deletedOf(resolved.get(i)), 0));
        }

        RequestView purged = awaitState(requestId, RequestState.PURGED);
        ForwardTarget target = target(purged, orders.name());
        assertThat(target.outcome()).isEqualTo(TargetOutcome.DELETED);
        assertThat(target.keys()).isEqualTo(300);
        assertThat(target.deleted())
                .as("each resolved batch once, the stale one not")
                .isEqualTo(deleted);
        assertThat(target.alreadyAbsent()).isEqualTo(300 - deleted);
        assertThat(target.detail()).isNull();
        assertThat(jdbc.queryForMap(COUNTED_SUMS, requestId, orders.name()))
                .as("what the counted batches sum to")
                .containsEntry("deleted", BigDecimal.valueOf(deleted))
                .containsEntry("absent", BigDecimal.valueOf(300 - deleted))
                .containsEntry("failures", 0L);
    }

    private static long deletedOf(DeletionTask resolved) {
        return Math.floorMod(resolved.taskId().hashCode(), 3) == 0 ? 0 : 1;
    }

    @Test
    void aKeptSnapshotIsRecordedWhileTheOtherTargetsArePurged() {
        String source = registerSource();
        DatasetSpec profiles = registerOn(source, UnaryOperator.identity());
        DatasetSpec orders = registerOn(source, spec -> spec.table("orders"));
        as("owner")
                .put()
                .uri("/api/datasets/" + orders.name() + "/forward-policy")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"action\": \"KEEP_SNAPSHOT\"}")
                .exchange()
                .expectStatus()
                .isOk();
        as("operator")
                .put()
                .uri("/api/datasets/" + orders.name() + "/forward-policy")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"action\": \"DELETE\"}")
                .exchange()
                .expectStatus()
                .isForbidden();

        EventEnvelope event = request(source, "11", 1, Map.of());
        publish(event);
        String requestId = DeletionRequests.idFor(event.eventId());
        List<DeletionTask> tasks = tasksOf(requestId, 1);
        assertThat(tasks).extracting(DeletionTask::dataset).containsOnly(profiles.name());

        batchEvent(sourceBatch(tasks.get(0), 1, 0));
        RequestView purged = awaitState(requestId, RequestState.PURGED);
        assertThat(target(purged, orders.name()).outcome()).isEqualTo(TargetOutcome.SNAPSHOT_KEPT);
        assertThat(target(purged, orders.name()).detail()).isEqualTo("snapshot kept (legal record)");
        assertThat(target(purged, profiles.name()).outcome()).isEqualTo(TargetOutcome.DELETED);
        assertThat(actionsOf("dataset:" + orders.name()))
                .extracting(a -> a.get("action"))
                .contains("dataset.forward-policy");

        // the legal records are not deleted by a run either: only a dry-run may look at them
        as("owner")
                .post()
                .uri("/api/datasets/" + orders.name() + "/runs")
                .exchange()
                .expectStatus()
                .isEqualTo(409)
                .expectBody(String.class)
                .value(body -> assertThat(body).contains("KEEP_SNAPSHOT"));
        as("owner")
                .post()
                .uri("/api/datasets/" + orders.name() + "/runs")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"dryRun\": true}")
                .exchange()
                .expectStatus()
                .isCreated();
    }

    @Test
    void anIdentifierThatOnlyLooksLikeANumberStaysText() {
        String source = registerSource();
        DatasetSpec accounts = registerOn(
                source,
                spec -> spec.table("accounts")
                        .keyColumns(KeyColumns.partitionOnly("account_ref"))
                        .identifierColumn("account_ref"));
        EventEnvelope event = request(source, "007", 1, Map.of());
        publish(event);
        DeletionTask task = tasksOf(DeletionRequests.idFor(event.eventId()), 1).get(0);
        assertThat(task.dataset()).isEqualTo(accounts.name());
        assertThat(task.keys())
                .as("as a number it would address account 7")
                .containsExactly(Map.of("account_ref", "007"));
    }

    @Test
    void theReconcilerRepublishesAStuckRequestsTasksUntilItResolvesWithADoublingDelay() {
        String source = registerSource();
        registerOn(source, UnaryOperator.identity());
        EventEnvelope event = request(source, "13", 1, Map.of());
        publish(event);
        String requestId = DeletionRequests.idFor(event.eventId());
        DeletionTask first = tasksOf(requestId, 1).get(0);

        reconciler.reconcile(clock.instant());
        assertThat(tasksOf(requestId, 1)).as("not yet past reconcile-after").hasSize(1);

        reconciler.reconcile(clock.instant().plus(Duration.ofMinutes(11)));
        List<DeletionTask> again = tasksOf(requestId, 2);
        assertThat(again).hasSize(2).extracting(DeletionTask::taskId).containsOnly(first.taskId());

        reconciler.reconcile(clock.instant().plus(Duration.ofMinutes(12)));
        assertThat(tasksOf(requestId, 2)).as("its retry is not due yet").hasSize(2);

        reconciler.reconcile(clock.instant().plus(Duration.ofMinutes(32)));
        assertThat(tasksOf(requestId, 3))
                .as("still unresolved: re-published again, after twice the delay")
                .hasSize(3)
                .extracting(DeletionTask::taskId)
                .containsOnly(first.taskId());

        reconciler.reconcile(clock.instant().plus(Duration.ofHours(25)));
        assertThat(metrics.unresolved()).isGreaterThanOrEqualTo(1);
        assertThat(meters.get(ForwardMetrics.UNRESOLVED_OLDEST).gauge().value())
                .as("the oldest unresolved request has waited at least this one's 25 hours")
                .isGreaterThanOrEqualTo(Duration.ofHours(25).toSeconds() - 60);
        Map<?, ?> summary = as("viewer")
                .get()
                .uri("/api/dashboard/summary")
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(Map.class)
                .getResponseBody();
        assertThat(((Number) summary.get("forwardUnresolved")).longValue()).isGreaterThanOrEqualTo(1);
        reconciler.reconcile(clock.instant());
    }

    @Test
    void aDatasetWhoseGrantWasWithdrawnGetsNoTaskAndItsTasksGoOutOnceTheGrantIsBack() {
        String source = registerSource();
        DatasetSpec profiles = registerOn(source, UnaryOperator.identity());
        DatasetSpec orders = registerOn(
                source, spec -> spec.table("orders").keyColumns(KeyColumns.of(List.of("order_id"), List.of())));
        // registered under grants an operator has narrowed since: cassandra-main grants demo-team only "shop" and
        // "search"
        moveToNamespace(profiles.name(), "ungranted");

        EventEnvelope event = request(source, "31", 1, Map.of());
        publish(event);
        String requestId = DeletionRequests.idFor(event.eventId());
        List<DeletionTask> tasks = tasksOf(requestId, 1);
        assertThat(tasks).extracting(DeletionTask::dataset).containsExactly(orders.name());
        ForwardTarget held = target(view(requestId), profiles.name());
        assertThat(held.outcome()).isEqualTo(TargetOutcome.NOT_GRANTED);
        assertThat(held.detail()).contains("ungranted").contains("erasure.ownership.grants");
        assertThat(held.blocking())
                .as("the request is not done while a dataset holding the key was not reached")
                .isTrue();

        reconciler.reconcile(clock.instant().plus(Duration.ofMinutes(11)));
        assertThat(tasksOf(requestId, 2))
                .as("still not granted: only the orders lookup is published again")
                .extracting(DeletionTask::dataset)
                .containsOnly(orders.name());

        moveToNamespace(profiles.name(), "shop");
        reconciler.reconcile(clock.instant().plus(Duration.ofMinutes(32)));
        List<DeletionTask> after = tasksOf(requestId, 4);
        DeletionTask published = taskOf(after, profiles.name());
        assertThat(published.keys()).containsExactly(Map.of("customer_id", 31));
        ForwardTarget pending = target(view(requestId), profiles.name());
        assertThat(pending.outcome()).isEqualTo(TargetOutcome.PENDING);
        assertThat(pending.taskIds()).containsExactly(published.taskId());

        batchEvent(sourceBatch(published, 1, 0));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> target(view(requestId), profiles.name()).confirmed());
        assertThat(target(view(requestId), profiles.name()).outcome()).isEqualTo(TargetOutcome.DELETED);
        reconciler.reconcile(clock.instant());
    }

    @Test
    void aDatasetDisabledWhileItsTargetWaitedForItsGrantIsLeftToTheAuditAndGetsNoTask() {
        String source = registerSource();
        DatasetSpec profiles = registerOn(source, UnaryOperator.identity());
        moveToNamespace(profiles.name(), "ungranted");
        EventEnvelope event = request(source, "32", 1, Map.of());
        publish(event);
        String requestId = DeletionRequests.idFor(event.eventId());
        awaitRequest(requestId);
        assertThat(target(view(requestId), profiles.name()).outcome()).isEqualTo(TargetOutcome.NOT_GRANTED);

        // the grant comes back, but the owner disabled the dataset meanwhile
        moveToNamespace(profiles.name(), "shop");
        as("owner")
                .post()
                .uri("/api/datasets/" + profiles.name() + "/disable")
                .exchange()
                .expectStatus()
                .isOk();
        reconciler.reconcile(clock.instant().plus(Duration.ofMinutes(11)));

        ForwardTarget target = target(view(requestId), profiles.name());
        assertThat(target.outcome()).as("as a new target of a disabled dataset").isEqualTo(TargetOutcome.LEFT_TO_AUDIT);
        assertThat(target.detail()).isEqualTo(TargetPlan.DISABLED);
        assertThat(target.blocking()).isFalse();
        assertThat(jdbc.queryForObject(
                        "SELECT count(*) FROM outbox WHERE topic = ? AND position(? in payload) > 0",
                        Integer.class,
                        Topics.DELETION_TASKS,
                        requestId))
                .as("no task published for it")
                .isZero();
        reconciler.reconcile(clock.instant());
    }

    private void moveToNamespace(String dataset, String namespace) {
        jdbc.update(
                "UPDATE datasets SET spec = jsonb_set(spec, '{namespace}', to_jsonb(?::text)) WHERE name = ?",
                namespace,
                dataset);
    }

    @Test
    void publishedAndRepublishedTasksNameTheirStoreInTheirHeaders() {
        String source = registerSource();
        DatasetSpec profiles = registerOn(source, UnaryOperator.identity());
        EventEnvelope event = request(source, "77", 1, Map.of());
        publish(event);
        String requestId = DeletionRequests.idFor(event.eventId());
        tasksOf(requestId, 1);

        reconciler.reconcile(clock.instant().plus(Duration.ofMinutes(11)));

        assertThat(taskHeadersOf(requestId, 2))
                .as("the deletion lanes pick their tasks by them")
                .hasSize(2)
                .allSatisfy(headers ->
                        assertThat(headers).containsExactly(Map.entry(Topics.TASK_STORE, profiles.connectionRef())));
        reconciler.reconcile(clock.instant());
    }

    @Test
    void anEventInAChainThisControlPlaneOriginatedIsDroppedAsALoop() {
        String source = registerSource();
        registerOn(source, UnaryOperator.identity());
        EventEnvelope event = request(source, "17", 1, Map.of());
        publish(event);
        String requestId = DeletionRequests.idFor(event.eventId());
        awaitRequest(requestId);
        double loops = metrics.intakeCount(IntakeOutcome.LOOP);

        // a service reacted to the deletion's batch events by announcing the identifier deleted again
        UUID deletionChain = DeterministicId.nameBasedUuid("run-chain", requestId);
        EventEnvelope echo = EventEnvelope.of(
                new ForwardDeletionRequested(source, "17", 2, Instant.now(), Map.of(), "profile-service"),
                null,
                deletionChain,
                Clock.systemUTC());
        publish(echo);
        await().atMost(Duration.ofSeconds(30)).until(() -> metrics.intakeCount(IntakeOutcome.LOOP) == loops + 1);
        assertThat(requests.find(DeletionRequests.idFor(echo.eventId()))).isEmpty();
        assertThat(requests.list(null, source, "17", 10)).hasSize(1);
    }

    @Test
    void aBurstOverTheLimitIsHeldUntilAnOperatorApprovesIt() {
        String source = registerSource();
        registerOn(source, UnaryOperator.identity());
        for (int id = 1; id <= 7; id++) {
            as("publisher")
                    .post()
                    .uri("/api/forward-requests")
                    .contentType(MediaType.APPLICATION_JSON)
                    .body("{\"aggregateType\": \"" + source + "\", \"aggregateId\": \"" + id + "\", \"version\": 1}")
                    .exchange()
                    .expectStatus()
                    .isAccepted();
        }
        assertThat(requests.list(RequestState.TOMBSTONED, source, null, 100)).hasSize(5);
        List<DeletionRequest> held = requests.list(RequestState.HELD, source, null, 100);
        assertThat(held).hasSize(2);
        assertThat(tasksOf(held.get(0).id(), 0))
                .as("nothing published while held")
                .isEmpty();

        as("publisher")
                .post()
                .uri("/api/forward-requests/held/approve?aggregateType=" + source)
                .exchange()
                .expectStatus()
                .isForbidden();
        Map<?, ?> approval = as("operator")
                .post()
                .uri("/api/forward-requests/held/approve?aggregateType=" + source)
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(Map.class)
                .getResponseBody();
        assertThat(approval.get("approved")).isEqualTo(2);
        assertThat(requests.list(RequestState.HELD, source, null, 100)).isEmpty();
        assertThat(tasksOf(held.get(0).id(), 1)).hasSize(1);
        assertThat(actionsOf("forward-requests"))
                .extracting(a -> a.get("action"))
                .contains("forward.held-approved");
    }

    @Test
    void theRestIntakeNamesTheInvalidFieldAndAcceptsOnlyPublishersAndOperators() {
        String source = registerSource();
        as("publisher")
                .post()
                .uri("/api/forward-requests")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"aggregateType\": \"" + source + "\", \"aggregateId\": \" \", \"version\": 1}")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody(String.class)
                .value(body -> assertThat(body).contains("aggregateId"));
        as("publisher")
                .post()
                .uri("/api/forward-requests")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"aggregateType\": \"" + source + "\", \"aggregateId\": \"1\"}")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody(String.class)
                .value(body -> assertThat(body).contains("version"));
        as("publisher")
                .post()
                .uri("/api/forward-requests")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"aggregateType\": \"no-such-source\", \"aggregateId\": \"1\", \"version\": 1}")
                .exchange()
                .expectStatus()
                .isBadRequest()
                .expectBody(String.class)
                .value(body -> assertThat(body).contains("aggregateType"));
        as("viewer")
                .post()
                .uri("/api/forward-requests")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"aggregateType\": \"" + source + "\", \"aggregateId\": \"1\", \"version\": 1}")
                .exchange()
                .expectStatus()
                .isForbidden();
        Map<?, ?> accepted = as("operator")
                .post()
                .uri("/api/forward-requests")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"aggregateType\": \"" + source + "\", \"aggregateId\": \"1\", \"version\": 1}")
                .exchange()
                .expectStatus()
                .isAccepted()
                .returnResult(Map.class)
                .getResponseBody();
        assertThat(accepted.get("state"))
                .as("no dataset uses the source: nothing to wait for")
                .isEqualTo("PURGED");
        as("operator")
                .post()
                .uri("/api/forward-requests")
                .contentType(MediaType.APPLICATION_JSON)
                .body("{\"aggregateType\": \"" + source + "\", \"aggregateId\": \"1\", \"version\": 1}")
                .exchange()
                .expectStatus()
                .isOk();
        as("viewer")
                .get()
                .uri("/api/forward-requests/" + accepted.get("requestId"))
                .exchange()
                .expectStatus()
                .isOk();
        as("viewer")
                .get()
                .uri("/api/forward-requests?aggregateType=" + source)
                .exchange()
                .expectStatus()
                .isOk();
    }

    // --- helpers

    private String registerSource() {
        String source = unique("src");
        as("operator")
                .post()
                .uri("/api/identifier-sources")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(source(source)))
                .exchange()
                .expectStatus()
                .isCreated();
        return source;
    }

    private DatasetSpec registerOn(String source, UnaryOperator<DatasetSpec.Builder> customize) {
        DatasetSpec spec = customize.apply(dataset(unique("ds"), source)).build();
        as("owner")
                .post()
                .uri("/api/datasets")
                .contentType(MediaType.APPLICATION_JSON)
                .body(json.writeValueAsString(spec))
                .exchange()
                .expectStatus()
                .isCreated();
        return spec;
    }

    private static EventEnvelope request(String type, String id, long version, Map<String, List<String>> children) {
        return EventEnvelope.startChain(
                new ForwardDeletionRequested(
                        type,
                        id,
                        version,
                        Instant.now().minusSeconds(1).truncatedTo(ChronoUnit.MICROS),
                        children,
                        "member-service"),
                null,
                Clock.systemUTC());
    }

    private void publish(EventEnvelope event) {
        ForwardDeletionRequested payload = (ForwardDeletionRequested) event.payload();
        send(Topics.FORWARD_REQUESTS, Topics.forwardRequestKey(payload.aggregateType(), payload.aggregateId()), event);
    }

    private void batchEvent(EventPayload payload) {
        String requestId =
                payload instanceof LookupResolved lookup ? lookup.requestId() : ((BatchCompleted) payload).requestId();
        String batchId =
                payload instanceof LookupResolved lookup ? lookup.batchId() : ((BatchCompleted) payload).batchId();
        send(
                Topics.RUN_EVENTS,
                requestId,
                sealed(EventEnvelope.of(
                                payload, null, DeterministicId.nameBasedUuid("run-chain", requestId), Clock.systemUTC())
                        .withEventId(DeterministicId.nameBasedUuid(
                                "batch-event", batchId, EventPayload.typeName(payload.getClass())))));
    }

    private void failedEvent(BatchFailed payload) {
        send(
                Topics.RUN_EVENTS,
                payload.requestId(),
                sealed(EventEnvelope.of(
                        payload,
                        null,
                        DeterministicId.nameBasedUuid("run-chain", payload.requestId()),
                        Clock.systemUTC())));
    }

    private void send(String topic, String key, EventEnvelope event) {
        try {
            kafka.send(topic, key, json.writeValueAsString(event)).get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static BatchCompleted sourceBatch(DeletionTask task, long deleted, int copyTasks) {
        return new BatchCompleted(
                task.dataset(),
                task.taskId(),
                task.batchId(0),
                task.requestId(),
                new BatchCounts(deleted, 0, task.keys().size() - deleted, 0),
                ReadBackResult.CLEAN,
                0,
                null,
                copyTasks,
                null);
    }

    private static LookupResolved lookupResolved(DeletionTask lookup, LookupResolution resolution) {
        return new LookupResolved(lookup.dataset(), lookup.taskId(), lookup.batchId(0), lookup.originId(), resolution);
    }

    private static BatchCompleted olderLookupBatch(DeletionTask lookup, LookupResolution resolution) {
        return new BatchCompleted(
                lookup.dataset(),
                lookup.taskId(),
                lookup.batchId(0),
                lookup.requestId(),
                new BatchCounts(0, 0, 0, 0),
                ReadBackResult.CLEAN,
                0,
                null,
                0,
                null,
                List.of(),
                resolution);
    }

    private static BatchCompleted copyBatch(DatasetSpec source, DeletionTask sourceTask) {
        DatasetCopy copy = source.copies().get(0);
        DeletionTask copyTask = DeletionTask.forCopy(
                sourceTask, copy, List.of(copy.keyOf(source, sourceTask.keys().get(0))));
        return new BatchCompleted(
                copyTask.dataset(),
                copyTask.taskId(),
                copyTask.batchId(0),
                sourceTask.requestId(),
                new BatchCounts(1, 0, 0, 0),
                ReadBackResult.CLEAN,
                0,
                source.name(),
                0,
                null);
    }

    private List<DeletionTask> tasksOf(String requestId, int atLeast) {
        return TopicRecords.read(
                LocalEngines.kafka().bootstrapServers(),
                Topics.DELETION_TASKS,
                value -> json.readValue(value, DeletionTask.class),
                task -> requestId.equals(task.requestId()),
                atLeast,
                Duration.ofSeconds(atLeast == 0 ? 3 : 30));
    }

    /** The headers of the request's task messages, as UTF-8 strings, in the order they were published. */
    private List<Map<String, String>> taskHeadersOf(String requestId, int atLeast) {
        List<Map<String, String>> found = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        LocalEngines.kafka().bootstrapServers(),
                        ConsumerConfig.GROUP_ID_CONFIG,
                        "test-headers-" + UUID.randomUUID(),
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest"),
                new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of(Topics.DELETION_TASKS));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (found.size() < atLeast && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(300))) {
                    if (requestId.equals(
                            json.readValue(record.value(), DeletionTask.class).requestId())) {
                        Map<String, String> headers = new LinkedHashMap<>();
                        record.headers()
                                .forEach(h -> headers.put(h.key(), new String(h.value(), StandardCharsets.UTF_8)));
                        found.add(headers);
                    }
                }
            }
        }
        return found;
    }

    private static DeletionTask taskOf(List<DeletionTask> tasks, String dataset) {
        return tasks.stream()
                .filter(t -> t.dataset().equals(dataset))
                .findFirst()
                .orElseThrow();
    }

    private DeletionRequest awaitRequest(String requestId) {
        return await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> requests.find(requestId), Optional::isPresent)
                .orElseThrow();
    }

    private RequestView view(String requestId) {
        return as("viewer")
                .get()
                .uri("/api/forward-requests/" + requestId)
                .exchange()
                .expectStatus()
                .isOk()
                .returnResult(RequestView.class)
                .getResponseBody();
    }

    private RequestView awaitState(String requestId, RequestState state) {
        return await().atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> view(requestId), v -> v.state() == state);
    }

    private static ForwardTarget target(RequestView view, String dataset) {
        return view.targets().stream()
                .filter(t -> t.dataset().equals(dataset))
                .findFirst()
                .orElseThrow();
    }
}
