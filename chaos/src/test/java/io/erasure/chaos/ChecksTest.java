package io.erasure.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.chaos.ChaosStores.Live;
import io.erasure.chaos.Violation.Kind;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Each invariant check finds the violation it names, and a correct outcome passes them all. */
class ChecksTest {

    private final TrialData data = TrialData.plan(0, new Random(7));
    private final String profiles = ChaosPlatform.PROFILES;
    private final String orders = ChaosPlatform.ORDERS;

    /** What a correct platform leaves after the runs: deletable rows and their cache entries gone, the rest intact. */
    private Live correctAfterRuns() {
        Map<Long, List<String>> profileRows = new HashMap<>();
        Map<Long, BigDecimal> orderRows = new HashMap<>();
        Map<Long, Integer> items = new HashMap<>();
        Set<Long> cached = new HashSet<>();
        for (long member : data.members()) {
            if (data.deletable(member)) {
                continue;
            }
            String name =
                    data.rewritten().contains(member) ? TrialData.rewrittenName(member) : TrialData.displayName(member);
            profileRows.put(member, Arrays.asList(name, TrialData.email(member), TrialData.country(member)));
            cached.add(member);
            for (int o = 0; o < TrialData.ORDERS_PER_MEMBER; o++) {
                long order = TrialData.order(member, o);
                orderRows.put(
                        order,
                        data.rewritten().contains(member) ? TrialData.rewrittenTotal(order) : TrialData.total(order));
                for (int i = 0; i < TrialData.ITEMS_PER_ORDER; i++) {
                    items.put(TrialData.item(order, i), TrialData.quantity(TrialData.item(order, i)));
                }
            }
        }
        return new Live(profileRows, orderRows, items, cached);
    }

    /** The original rows of everything, as a restore must leave them (cache entries stay gone). */
    private Live restoredFrom(Live afterRuns) {
        Live restored = correctAfterRuns();
        for (long member : data.members()) {
            if (data.deletable(member)) {
                restored.profiles()
                        .put(
                                member,
                                Arrays.asList(
                                        TrialData.displayName(member),
                                        TrialData.email(member),
                                        TrialData.country(member)));
                for (int o = 0; o < TrialData.ORDERS_PER_MEMBER; o++) {
                    long order = TrialData.order(member, o);
                    restored.orders().put(order, TrialData.total(order));
                    for (int i = 0; i < TrialData.ITEMS_PER_ORDER; i++) {
                        restored.items().put(TrialData.item(order, i), TrialData.quantity(TrialData.item(order, i)));
                    }
                }
            }
        }
        return restored;
    }

    private Map<String, Integer> oneRecordPerDeletedProfile() {
        Map<String, Integer> records = new HashMap<>();
        data.members().stream()
                .filter(data::deletable)
                .forEach(m -> records.put(ChaosStores.profileKeyHash(profiles, m), 1));
        return records;
    }

    private Map<String, Integer> oneRecordPerDeletedOrder() {
        Map<String, Integer> records = new HashMap<>();
        data.members().stream().filter(data::deletable).forEach(m -> {
            for (int o = 0; o < TrialData.ORDERS_PER_MEMBER; o++) {
                records.put(ChaosStores.orderKeyHash(orders, TrialData.order(m, o)), 1);
            }
        });
        return records;
    }

    private long deletableMembers() {
        return data.members().stream().filter(data::deletable).count();
    }

    @Test
    void aCorrectOutcomePassesEveryCheck() {
        Checks checks = new Checks(data, Checks.Writes.none());
        Live live = correctAfterRuns();
        checks.rows(live);
        checks.log(live, oneRecordPerDeletedProfile(), oneRecordPerDeletedOrder(), profiles, orders);
        checks.receipts(live, deletableMembers(), deletableMembers() * TrialData.ORDERS_PER_MEMBER);
        checks.restored(live, restoredFrom(live));
        assertThat(checks.violations()).isEmpty();
    }

    @Test
    void aKeptRowGoneAndADeletableRowLeftAreBothFound() {
        Live live = correctAfterRuns();
        long reactivated = data.reactivated().iterator().next();
        long deletable =
                data.members().stream().filter(data::deletable).findFirst().orElseThrow();
        live.profiles().remove(reactivated);
        live.orders().put(TrialData.order(deletable, 0), TrialData.total(TrialData.order(deletable, 0)));
        Checks checks = new Checks(data, Checks.Writes.none());
        checks.rows(live);
        assertThat(checks.violations())
                .extracting(Violation::kind)
                .containsExactlyInAnyOrder(Kind.OVER_DELETED, Kind.NOT_DELETED);
    }

    @Test
    void aLiveWriteThatFoundItsRowMustSurviveWithWhatItWrote() {
        long late = data.late().iterator().next();
        long order = TrialData.order(late, 0);
        Checks.Writes writes = new Checks.Writes(
                Map.of(late, "live write 3"), Map.of(order, new BigDecimal("500.03")), Map.of(), Set.of(), Set.of());
        Live live = correctAfterRuns();
        live.profiles().put(late, Arrays.asList("live write 2", null, null));
        Checks checks = new Checks(data, writes);
        checks.rows(live);
        assertThat(checks.violations())
                .extracting(Violation::kind)
                .containsExactlyInAnyOrder(Kind.NEWER_WRITE_LOST, Kind.OVER_DELETED);
    }

    @Test
    void cacheEntriesMustGoExactlyWithTheirRows() {
        Live live = correctAfterRuns();
        long deletable =
                data.members().stream().filter(data::deletable).findFirst().orElseThrow();
        long kept = data.members().stream()
                .filter(m -> !TrialData.departed(m))
                .findFirst()
                .orElseThrow();
        live.cached().add(deletable);
        live.cached().remove(kept);
        Checks checks = new Checks(data, Checks.Writes.none());
        checks.rows(live);
        assertThat(checks.violations())
                .extracting(Violation::kind)
                .containsExactlyInAnyOrder(Kind.COPY_LEFT, Kind.COPY_OVER_DELETED);
    }

    @Test
    void aDeletedRowNeedsExactlyOneRecordAndAKeptRowNone() {
        Live live = correctAfterRuns();
        Map<String, Integer> profileRecords = oneRecordPerDeletedProfile();
        List<Long> deletable = data.members().stream().filter(data::deletable).toList();
        profileRecords.remove(ChaosStores.profileKeyHash(profiles, deletable.get(0)));
        profileRecords.put(ChaosStores.profileKeyHash(profiles, deletable.get(1)), 2);
        profileRecords.put(
                ChaosStores.profileKeyHash(profiles, data.rewritten().iterator().next()), 1);
        Checks checks = new Checks(data, Checks.Writes.none());
        checks.log(live, profileRecords, oneRecordPerDeletedOrder(), profiles, orders);
        assertThat(checks.violations())
                .extracting(Violation::kind)
                .containsExactlyInAnyOrder(Kind.LOG_MISSING, Kind.LOG_DUPLICATE, Kind.LOG_OF_KEPT_ROW);
    }

    @Test
    void receiptsMustCountWhatTheEnginesLack() {
        Live live = correctAfterRuns();
        Checks checks = new Checks(data, Checks.Writes.none());
        checks.receipts(live, deletableMembers() + 1, deletableMembers() * TrialData.ORDERS_PER_MEMBER - 1);
        assertThat(checks.violations())
                .extracting(Violation::kind)
                .containsExactly(Kind.RECEIPT_MISMATCH, Kind.RECEIPT_MISMATCH);
    }

    @Test
    void aRestoreMustBringBackWhatWasDeletedAndChangeNothingElse() {
        Live afterRuns = correctAfterRuns();
        Live restored = restoredFrom(afterRuns);
        long deletable =
                data.members().stream().filter(data::deletable).findFirst().orElseThrow();
        long kept = data.rewritten().iterator().next();
        restored.profiles().remove(deletable);
        restored.orders().put(TrialData.order(kept, 0), TrialData.total(TrialData.order(kept, 0)));
        Checks checks = new Checks(data, Checks.Writes.none());
        checks.restored(afterRuns, restored);
        assertThat(checks.violations())
                .extracting(Violation::kind)
                .containsExactlyInAnyOrder(Kind.RESTORE_MISSING, Kind.RESTORE_OVERWROTE);
    }
}
