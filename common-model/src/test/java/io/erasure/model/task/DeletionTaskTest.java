package io.erasure.model.task;

import static io.erasure.model.Fixtures.CUTOFF;
import static io.erasure.model.Fixtures.JSON;
import static io.erasure.model.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.Fixtures;
import io.erasure.model.contract.Topics;
import io.erasure.model.cutoff.CutoffTimestamp;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.key.CanonicalKey;
import io.erasure.model.run.RunId;
import io.erasure.model.trust.Authorization;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeletionTaskTest {

    private static final RunId RUN = RunId.of("run-1");
    private final DatasetSpec orders = Fixtures.orders();

    @Test
    void taskIdDependsOnTheKeySetNotItsOrderOrNumberTypes() {
        List<Map<String, Object>> keys =
                List.of(key("customer_id", 1, "order_id", 10), key("customer_id", 1, "order_id", 11));
        List<Map<String, Object>> reordered =
                List.of(key("order_id", 11L, "customer_id", 1L), key("order_id", 10, "customer_id", 1));

        String id = DeletionTask.taskIdFor("run-1", "orders", keys);
        assertThat(id).matches("task-[0-9a-f]{40}");
        assertThat(DeletionTask.taskIdFor("run-1", "orders", reordered)).isEqualTo(id);
        assertThat(DeletionTask.forRun(RUN, orders, keys, CUTOFF).taskId()).isEqualTo(id);

        assertThat(DeletionTask.taskIdFor("run-2", "orders", keys)).isNotEqualTo(id);
        assertThat(DeletionTask.taskIdFor("run-1", "orders", List.of(keys.get(0))))
                .isNotEqualTo(id);
        assertThat(DeletionTask.taskIdFor(
                        "run-1", "orders", List.of(keys.get(0), key("customer_id", 1, "order_id", 12))))
                .isNotEqualTo(id);
    }

    @Test
    void keysMustBeFullPrimaryKeysOfTheSpec() {
        assertThatThrownBy(() -> DeletionTask.forRun(RUN, orders, List.of(key("customer_id", 1)), CUTOFF))
                .hasMessage("task.keys[0] must have exactly the primary key columns [customer_id, order_id],"
                        + " got [customer_id]");
        assertThatThrownBy(() -> DeletionTask.forRun(RUN, orders, List.of(), CUTOFF))
                .hasMessage("task.keys must contain at least one element");
    }

    @Test
    void keysAreLimitedPerTask() {
        List<Map<String, Object>> tooMany = new ArrayList<>();
        for (int i = 0; i <= DeletionTask.MAX_KEYS; i++) {
            tooMany.add(key("customer_id", 1, "order_id", i));
        }
        assertThatThrownBy(() -> DeletionTask.forRun(RUN, orders, tooMany, CUTOFF))
                .hasMessageContaining("split it into tasks of at most 1000");
        assertThat(DeletionTask.forRun(RUN, orders, tooMany.subList(0, DeletionTask.MAX_KEYS), CUTOFF)
                        .keys())
                .hasSize(DeletionTask.MAX_KEYS);
    }

    @Test
    void belongsToExactlyOneRunOrRequest() {
        List<Map<String, Object>> keys = List.of(key("customer_id", 1, "order_id", 10));
        assertThatThrownBy(() -> new DeletionTask("task-x", RUN, "req-1", "orders", orders, keys, CUTOFF, 5))
                .hasMessageStartingWith("task must have exactly one of runId");
        assertThatThrownBy(() -> new DeletionTask("task-x", null, null, "orders", orders, keys, CUTOFF, 5))
                .hasMessageStartingWith("task must have exactly one of runId");

        DeletionTask forward = DeletionTask.forward("req-1", orders, keys, CUTOFF, 9);
        assertThat(forward.forward()).isTrue();
        assertThat(forward.originId()).isEqualTo("req-1");
        assertThat(forward.priority()).isEqualTo(9);
        DeletionTask backlog = DeletionTask.forRun(RUN, orders, keys, CUTOFF);
        assertThat(backlog.forward()).isFalse();
        assertThat(backlog.priority()).isEqualTo(orders.priority());
        assertThat(backlog.batchId(0)).isEqualTo(backlog.taskId() + "-b0");
    }

    @Test
    void originAndEffectAreTheTypesTheWireFieldsEncode() {
        List<Map<String, Object>> keys = List.of(key("customer_id", 1, "order_id", 10));
        DeletionTask run = DeletionTask.forRun(RUN, orders, keys, CUTOFF);
        DeletionTask copy =
                DeletionTask.forCopy(run, orders.copy("orders-cache").orElseThrow(), keys);
        DeletionTask forward = DeletionTask.forward("req-1", orders, keys, CUTOFF, 9);
        DatasetSpec accounts = Fixtures.postgresAccounts().build();
        List<Map<String, Object>> ids = List.of(Map.of("customer_id", 7L));
        DeletionTask clearing =
                DeletionTask.forward("req-1", accounts, List.of(Map.of("account_id", 3L)), CUTOFF, 9, List.of("email"));
        DeletionTask lookup = DeletionTask.forwardLookup("req-1", accounts, ids, CUTOFF, 9, List.of());
        DeletionTask clearingLookup = DeletionTask.forwardLookup("req-1", accounts, ids, CUTOFF, 9, List.of("email"));

        assertThat(run.origin()).isEqualTo(new TaskOrigin.Run(RUN));
        assertThat(copy.origin()).as("a copy keeps its source's origin").isEqualTo(new TaskOrigin.Run(RUN));
        assertThat(forward.origin()).isEqualTo(new TaskOrigin.Request("req-1"));
        assertThat(List.of(run.origin().noun(), forward.origin().noun())).containsExactly("run", "request");

        assertThat(run.effect()).isEqualTo(TaskEffect.DELETE);
        assertThat(clearing.effect()).isEqualTo(new TaskEffect.Clear(List.of("email")));
        assertThat(lookup.effect()).isEqualTo(new TaskEffect.Lookup("customer_id", TaskEffect.DELETE));
        assertThat(clearingLookup.effect())
                .isEqualTo(new TaskEffect.Lookup("customer_id", new TaskEffect.Clear(List.of("email"))));
        assertThat(List.of(
                        run.anonymising(), clearing.anonymising(), lookup.anonymising(), clearingLookup.anonymising()))
                .containsExactly(false, true, false, true);
        assertThat(DeletionTask.resolvedFrom(clearingLookup, List.of(Map.of("account_id", 3L)))
                        .effect())
                .as("the rows a lookup finds get its effect on rows")
                .isEqualTo(clearingLookup.effect().onRows());

        assertThat(List.of(run.authorizationKind(), copy.authorizationKind(), forward.authorizationKind()))
                .containsExactly(Authorization.Kind.RUN, Authorization.Kind.COPY, Authorization.Kind.FORWARD);
        assertThat(JSON.writeValueAsString(run))
                .as("the types are read from the wire fields, never written beside them")
                .doesNotContain("\"origin\"")
                .doesNotContain("\"effect\"");
    }

    @Test
    void datasetMustMatchTheFrozenSpec() {
        List<Map<String, Object>> keys = List.of(key("customer_id", 1, "order_id", 10));
        assertThatThrownBy(() -> new DeletionTask("task-x", RUN, null, "accounts", orders, keys, CUTOFF, 5))
                .hasMessageContaining("task.dataset 'accounts' must equal the frozen spec's name 'orders'");
    }

    @Test
    void isKeyedByDatasetAndPartition() {
        DeletionTask task = DeletionTask.forRun(RUN, orders, List.of(key("order_id", 10, "customer_id", 1)), CUTOFF);
        assertThat(Topics.taskKey(task)).isEqualTo("orders|{\"customer_id\":1}");
    }

    @Test
    void roundTripsThroughJson() {
        DeletionTask task = DeletionTask.forRun(
                RUN,
                orders,
                List.of(key("customer_id", 1, "order_id", "a"), key("customer_id", 2, "order_id", "b")),
                CUTOFF);
        DeletionTask back = JSON.readValue(JSON.writeValueAsString(task), DeletionTask.class);
        assertThat(back).isEqualTo(task);
        assertThat(DeletionTask.taskIdFor(back.originId(), back.dataset(), back.keys()))
                .isEqualTo(task.taskId());
    }

    @Test
    void aCopyTaskDeletesFromTheCopysViewWithTheSourcesCutoff() {
        DeletionTask source =
                DeletionTask.forRun(RUN, Fixtures.orders(), List.of(key("customer_id", 7, "order_id", "o-1")), CUTOFF);
        var cache = Fixtures.orders().copy("orders-cache").orElseThrow();

        DeletionTask copy = DeletionTask.forCopy(source, cache, List.of(key("customer_id", 7, "order_id", "o-1")));

        assertThat(copy.dataset()).isEqualTo("orders--orders-cache");
        assertThat(copy.copyOf()).isEqualTo("orders");
        assertThat(copy.cutoff()).isEqualTo(source.cutoff());
        assertThat(copy.runId()).isEqualTo(RUN);
        assertThat(copy.taskId())
                .isNotEqualTo(source.taskId())
                .isEqualTo(DeletionTask.forCopy(source, cache, List.of(key("order_id", "o-1", "customer_id", 7)))
                        .taskId());
        assertThat(JSON.readValue(JSON.writeValueAsString(copy), DeletionTask.class))
                .isEqualTo(copy);
        assertThatThrownBy(() -> DeletionTask.forCopy(copy, cache, copy.keys()))
                .hasMessageContaining("copies have no copies");
        var later = new CutoffTimestamp(CUTOFF.micros() + 5_000_000);
        assertThat(DeletionTask.forCopy(source, cache, copy.keys(), later).cutoff())
                .isEqualTo(later);
        var earlier = new CutoffTimestamp(CUTOFF.micros() - 1);
        assertThatThrownBy(() -> DeletionTask.forCopy(source, cache, copy.keys(), earlier))
                .hasMessageContaining("must not be before its source's");
    }

    @Test
    void keyDigestsIgnoreOrderAndNumberTyping() {
        String digest = CanonicalKey.digestOf(List.of(key("id", 1), key("id", 2L)));
        assertThat(digest)
                .hasSize(64)
                .isEqualTo(CanonicalKey.digestOf(List.of(key("id", 2), key("id", 1L))))
                .isNotEqualTo(CanonicalKey.digestOf(List.of(key("id", 1))));
        assertThat(CanonicalKey.digestOf(List.of())).isNull();
    }

    @Test
    void aRunsTaskIsPacedOverItsSpecsSpreadWindowWithoutChangingItsId() {
        DatasetSpec spread =
                Fixtures.cassandraOrders().spreadOver(Duration.ofHours(6)).build();
        List<Map<String, Object>> keys =
                List.of(key("customer_id", 1, "order_id", "a"), key("customer_id", 2, "order_id", "b"));
        DeletionTask task = DeletionTask.forRun(RUN, spread, keys, CUTOFF);
        SpreadWindow window = SpreadWindow.of(Fixtures.T0, Duration.ofHours(6), 500);

        DeletionTask paced = task.withSpread(window);

        assertThat(task.paced()).isFalse();
        assertThat(paced.paced()).isTrue();
        assertThat(paced.spread().end()).isEqualTo(Fixtures.T0.plus(Duration.ofHours(6)));
        assertThat(paced.taskId()).as("a re-published task is the same task").isEqualTo(task.taskId());
        assertThat(JSON.readValue(JSON.writeValueAsString(paced), DeletionTask.class))
                .isEqualTo(paced);
        assertThat(JSON.readTree(JSON.writeValueAsString(task)).has("spread"))
                .as("unpaced tasks travel as before")
                .isFalse();
    }

    @Test
    void onlyARunsOwnTasksArePacedAndOnlyOverTheWindowTheirSpecAsks() {
        DatasetSpec spread =
                Fixtures.cassandraOrders().spreadOver(Duration.ofHours(6)).build();
        List<Map<String, Object>> keys =
                List.of(key("customer_id", 1, "order_id", "a"), key("customer_id", 2, "order_id", "b"));
        SpreadWindow sixHours = SpreadWindow.of(Fixtures.T0, Duration.ofHours(6), 500);

        assertThatThrownBy(() -> DeletionTask.forRun(RUN, orders, keys, CUTOFF).withSpread(sixHours))
                .hasMessage("task.spread lasts PT6H but the frozen spec's spreadOver is null");
        assertThatThrownBy(() -> DeletionTask.forRun(RUN, spread, keys, CUTOFF)
                        .withSpread(SpreadWindow.of(Fixtures.T0, Duration.ofHours(1), 500)))
                .hasMessage("task.spread lasts PT1H but the frozen spec's spreadOver is PT6H");
        assertThatThrownBy(() ->
                        DeletionTask.forward("req-1", spread, keys, CUTOFF, 9).withSpread(sixHours))
                .hasMessageContaining("forward deletion and copies are never paced");
        DeletionTask source = DeletionTask.forRun(RUN, spread, keys, CUTOFF).withSpread(sixHours);
        DeletionTask copy =
                DeletionTask.forCopy(source, spread.copy("orders-cache").orElseThrow(), keys);
        assertThat(copy.paced())
                .as("copies follow their source's paced batches")
                .isFalse();
        assertThatThrownBy(() -> copy.withSpread(sixHours)).hasMessageContaining("never paced");
        assertThatThrownBy(() -> DeletionTask.forRun(RUN, spread, keys, CUTOFF)
                        .withSpread(SpreadWindow.of(Fixtures.T0, Duration.ofHours(6), 1)))
                .hasMessageContaining(
                        "task.spread.plannedKeys (1, the run's keys) must be at least this task's 2 keys");
        assertThatThrownBy(() -> new SpreadWindow(Fixtures.T0, Fixtures.T0, 5))
                .hasMessageStartingWith("spread.end must be after spread.start");
        assertThatThrownBy(() -> SpreadWindow.of(Fixtures.T0, Duration.ofHours(6), 0))
                .hasMessage("spread.plannedKeys must be > 0, got 0");
    }
}
