package io.erasure.store.cassandra.guard;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.store.cassandra.guard.Decision.Verdict;
import io.erasure.store.cassandra.guard.NodeStatus.Reachability;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The guard's decisions on injected cluster state and table settings. */
class GcGraceGuardTest {

    private static final Instant NOW = Instant.parse("2030-03-01T12:00:00Z");
    private static final Duration TEN_DAYS = Duration.ofDays(10);
    private static final Instant REPAIRED_YESTERDAY = NOW.minus(Duration.ofDays(1));

    private final GcGraceGuard guard = new GcGraceGuard(Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void aReplicaDownElevenDaysWithGcGraceOfTenDaysIsRefusedWithTheReasonAndTheFix() {
        ClusterState cluster = cluster(up("127.0.0.1"), down("127.0.0.2", Duration.ofDays(11)), up("127.0.0.3"));

        Decision decision = guard.decide(cluster, profiles(Replication.simple(3), TEN_DAYS, REPAIRED_YESTERDAY), 1);

        assertThat(decision.verdict()).isEqualTo(Verdict.REFUSE);
        assertThat(decision.reasons())
                .containsExactly("node 127.0.0.2 has been unreachable for 11 days, longer than"
                        + " demo.member_profiles' gc_grace_seconds of 10 days: its data may resurrect deleted rows;"
                        + " repair it (nodetool repair) or remove it before deleting");
    }

    @Test
    void aReplicaDownForTwoHoursIsAllowed() {
        ClusterState cluster = cluster(up("127.0.0.1"), down("127.0.0.2", Duration.ofHours(2)), up("127.0.0.3"));

        Decision decision = guard.decide(cluster, profiles(Replication.simple(3), TEN_DAYS, REPAIRED_YESTERDAY), 1);

        assertThat(decision).isEqualTo(Decision.allow());
    }

    @Test
    void gcGraceZeroWithThreeReplicasIsRefusedBecauseTombstonesCannotPropagate() {
        Decision decision = guard.decide(
                cluster(up("127.0.0.1"), up("127.0.0.2"), up("127.0.0.3")),
                profiles(Replication.simple(3), Duration.ZERO, REPAIRED_YESTERDAY),
                1);

        assertThat(decision.verdict()).isEqualTo(Verdict.REFUSE);
        assertThat(decision.reasons())
                .singleElement()
                .asString()
                .startsWith(
                        "demo.member_profiles has gc_grace_seconds = 0 with replication factor 3: its tombstones may"
                                + " be purged before they reach every replica")
                .contains("ALTER TABLE demo.member_profiles WITH gc_grace_seconds = 864000");
    }

    @Test
    void noRepairKnownWithinGcGraceIsAWarning() {
        Decision decision = guard.decide(
                cluster(up("127.0.0.1"), up("127.0.0.2"), up("127.0.0.3")),
                profiles(Replication.simple(3), TEN_DAYS, null),
                1);

        assertThat(decision.verdict()).isEqualTo(Verdict.WARN);
        assertThat(decision.reasons())
                .singleElement()
                .asString()
                .startsWith(
                        "no successful repair of demo.member_profiles is known within its gc_grace_seconds of 10 days")
                .contains("nodetool repair demo member_profiles");
    }

    @Test
    void aLastRepairOlderThanGcGraceIsAWarning() {
        Decision decision = guard.decide(
                cluster(up("127.0.0.1"), up("127.0.0.2")),
                profiles(Replication.simple(2), TEN_DAYS, NOW.minus(Duration.ofDays(12))),
                1);

        assertThat(decision.verdict()).isEqualTo(Verdict.WARN);
        assertThat(decision.reasons())
                .singleElement()
                .asString()
                .startsWith(
                        "the last known successful repair of demo.member_profiles ended 12 days ago, longer than its"
                                + " gc_grace_seconds of 10 days");
    }

    @Test
    void withReplicationFactorOneNoReplicaCanBeStaleSoEvenALongDownNodeAndNoRepairAreAllowed() {
        ClusterState cluster = cluster(up("127.0.0.1"), down("127.0.0.2", Duration.ofDays(30)));

        assertThat(guard.decide(cluster, profiles(Replication.simple(1), TEN_DAYS, null), 1))
                .isEqualTo(Decision.allow());
        assertThat(guard.decide(cluster, profiles(Replication.simple(1), Duration.ZERO, null), 1))
                .isEqualTo(Decision.allow());
    }

    @Test
    void moreTombstonesIntoOnePartitionThanTheWarnThresholdIsAWarningAndAsManyIsNot() {
        ClusterState cluster = cluster(up("127.0.0.1"));
        TableSettings table =
                new TableSettings("demo", "member_profiles", TEN_DAYS, Replication.simple(1), Optional.empty(), 100);

        Decision over = guard.decide(cluster, table, 101);

        assertThat(over.verdict()).isEqualTo(Verdict.WARN);
        assertThat(over.reasons())
                .singleElement()
                .asString()
                .startsWith("this batch writes 101 tombstones into one partition of demo.member_profiles, more than"
                        + " tombstone_warn_threshold (100)");
        assertThat(guard.decide(cluster, table, 100)).isEqualTo(Decision.allow());
    }

    @Test
    void aDownNodeInADataCenterWithoutReplicasOfTheKeyspaceDoesNotCount() {
        ClusterState cluster = cluster(
                up("10.0.0.1", "dc1"),
                up("10.0.0.2", "dc1"),
                NodeStatus.down("10.1.0.1", "dc2", NOW.minus(Duration.ofDays(40)), Optional.empty()));

        Decision decision = guard.decide(
                cluster, profiles(Replication.perDatacenter(Map.of("dc1", 2)), TEN_DAYS, REPAIRED_YESTERDAY), 1);

        assertThat(decision).isEqualTo(Decision.allow());
    }

    @Test
    void aNodeAlreadyDownWhenFirstSeenMayHaveBeenDownLongerSoItIsAWarning() {
        ClusterState cluster = cluster(
                up("127.0.0.1"),
                NodeStatus.down("127.0.0.2", "datacenter1", NOW.minus(Duration.ofHours(2)), Optional.empty()));

        Decision decision = guard.decide(cluster, profiles(Replication.simple(2), TEN_DAYS, REPAIRED_YESTERDAY), 1);

        assertThat(decision.verdict()).isEqualTo(Verdict.WARN);
        assertThat(decision.reasons())
                .singleElement()
                .asString()
                .startsWith("node 127.0.0.2 was already unreachable when this adapter first looked, 2 hours ago");
    }

    @Test
    void aNodeLastSeenUpLongerThanGcGraceAgoIsAWarningEvenIfSeenDownOnlyRecently() {
        ClusterState cluster = cluster(
                up("127.0.0.1"),
                NodeStatus.down(
                        "127.0.0.2",
                        "datacenter1",
                        NOW.minus(Duration.ofHours(1)),
                        Optional.of(NOW.minus(Duration.ofDays(15)))));

        Decision decision = guard.decide(cluster, profiles(Replication.simple(2), TEN_DAYS, REPAIRED_YESTERDAY), 1);

        assertThat(decision.verdict()).isEqualTo(Verdict.WARN);
        assertThat(decision.reasons())
                .singleElement()
                .asString()
                .startsWith("node 127.0.0.2 is unreachable and was last seen up 15 days ago");
    }

    @Test
    void aReplicaInAnUnknownStateIsAWarning() {
        ClusterState cluster = cluster(
                up("127.0.0.1"),
                new NodeStatus("127.0.0.2", "datacenter1", Reachability.UNKNOWN, Optional.empty(), Optional.empty()));

        Decision decision = guard.decide(cluster, profiles(Replication.simple(2), TEN_DAYS, REPAIRED_YESTERDAY), 1);

        assertThat(decision.verdict()).isEqualTo(Verdict.WARN);
        assertThat(decision.reasons()).singleElement().asString().startsWith("the state of node 127.0.0.2");
    }

    @Test
    void everyReasonToRefuseIsGivenAndRefusalWinsOverWarnings() {
        ClusterState cluster = cluster(down("127.0.0.2", Duration.ofDays(11)), down("127.0.0.3", Duration.ofDays(20)));

        Decision decision = guard.decide(cluster, profiles(Replication.simple(3), TEN_DAYS, null), 5000);

        assertThat(decision.verdict()).isEqualTo(Verdict.REFUSE);
        assertThat(decision.reasons()).hasSize(2);
        assertThat(decision.reason())
                .contains("node 127.0.0.2 has been unreachable for 11 days")
                .contains("node 127.0.0.3 has been unreachable for 20 days");
    }

    @Test
    void durationsReadAsPeopleSayThem() {
        assertThat(GcGraceGuard.human(Duration.ofDays(10))).isEqualTo("10 days");
        assertThat(GcGraceGuard.human(Duration.ofSeconds(3600))).isEqualTo("1 hour");
        assertThat(GcGraceGuard.human(Duration.ofMinutes(150))).isEqualTo("2 hours 30 minutes");
        assertThat(GcGraceGuard.human(Duration.ofDays(11).plusMinutes(3))).isEqualTo("11 days");
        assertThat(GcGraceGuard.human(Duration.ZERO)).isEqualTo("0 seconds");
    }

    private static TableSettings profiles(Replication replication, Duration gcGrace, Instant lastRepair) {
        return new TableSettings(
                "demo", "member_profiles", gcGrace, replication, Optional.ofNullable(lastRepair), 1000);
    }

    private static ClusterState cluster(NodeStatus... nodes) {
        return new ClusterState(List.of(nodes), "driver", NOW);
    }

    private static NodeStatus up(String address) {
        return up(address, "datacenter1");
    }

    private static NodeStatus up(String address, String datacenter) {
        return NodeStatus.up(address, datacenter, NOW);
    }

    /** Down for {@code downFor}, and seen up just before. */
    private static NodeStatus down(String address, Duration downFor) {
        Instant since = NOW.minus(downFor);
        return NodeStatus.down(address, "datacenter1", since, Optional.of(since.minusSeconds(5)));
    }
}
