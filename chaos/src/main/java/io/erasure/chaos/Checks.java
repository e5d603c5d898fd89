package io.erasure.chaos;

import io.erasure.chaos.ChaosStores.Live;
import io.erasure.chaos.Violation.Kind;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * The invariants of a trial, decided from the trial's plan ({@link TrialData}), what the live writer saw
 * ({@link LiveWriter}) and what the engines hold ({@link Live}); never from the platform's own counts, except the
 * receipts, which are compared with the engines.
 */
final class Checks {

    private final TrialData data;
    private final Writes writes;
    private final List<Violation> found = new ArrayList<>();

    /** What the live writer recorded: the rows its writes found, and those whose outcome is unknown. */
    record Writes(
            Map<Long, String> profiles,
            Map<Long, BigDecimal> orders,
            Map<Long, Integer> items,
            Set<Long> uncertainProfiles,
            Set<Long> uncertainOrders) {

        static Writes of(LiveWriter writer) {
            return new Writes(
                    Map.copyOf(writer.profiles),
                    Map.copyOf(writer.orders),
                    Map.copyOf(writer.items),
                    Set.copyOf(writer.uncertainProfiles),
                    Set.copyOf(writer.uncertainOrders));
        }

        static Writes none() {
            return new Writes(Map.of(), Map.of(), Map.of(), Set.of(), Set.of());
        }
    }

    Checks(TrialData data, Writes writes) {
        this.data = data;
        this.writes = writes;
    }

    List<Violation> violations() {
        return List.copyOf(found);
    }

    void add(Kind kind, String detail) {
        found.add(new Violation(kind, detail));
    }

    // ---- after the runs -------------------------------------------------------------------------------------------

    /** Rows gone exactly where they should be, copies with them, newer writes kept. */
    void rows(Live live) {
        for (long member : data.members()) {
            if (writes.uncertainProfiles().contains(member)) {
                continue;
            }
            List<String> profile = live.profiles().get(member);
            String late = writes.profiles().get(member);
            boolean cached = live.cached().contains(member);
            if (late != null) {
                if (profile == null) {
                    add(
                            Kind.OVER_DELETED,
                            "profile " + member + " was written after the cut-off (" + late + ") and is gone");
                } else if (!late.equals(profile.get(0))) {
                    add(
                            Kind.NEWER_WRITE_LOST,
                            "profile " + member + " holds " + profile + ", the last write was " + late);
                }
            } else if (data.deletable(member)) {
                if (profile != null) {
                    add(Kind.NOT_DELETED, "profile " + member + " is still there: " + profile);
                }
                if (cached) {
                    add(Kind.COPY_LEFT, "cache entry " + TrialData.cacheKey(member) + " is left, its profile is gone");
                }
            } else {
                List<String> expected = originalProfile(member);
                if (profile == null) {
                    add(Kind.OVER_DELETED, "profile " + member + " (" + why(member) + ") is gone");
                } else if (!expected.equals(profile)) {
                    add(Kind.NEWER_WRITE_LOST, "profile " + member + " holds " + profile + ", expected " + expected);
                }
                if (!cached) {
                    add(
                            Kind.COPY_OVER_DELETED,
                            "cache entry " + TrialData.cacheKey(member) + " is gone, its profile (" + why(member)
                                    + ") was kept");
                }
            }
            for (int o = 0; o < TrialData.ORDERS_PER_MEMBER; o++) {
                order(live, member, TrialData.order(member, o));
            }
        }
    }

    private void order(Live live, long member, long order) {
        if (writes.uncertainOrders().contains(order)) {
            return;
        }
        BigDecimal total = live.orders().get(order);
        if (mustKeep(member, order)) {
            if (total == null) {
                add(Kind.OVER_DELETED, "order " + order + " (" + orderWhy(member, order) + ") is gone");
                return;
            }
            BigDecimal expected = expectedTotal(member, order);
            if (expected.compareTo(total) != 0) {
                add(Kind.NEWER_WRITE_LOST, "order " + order + " holds total " + total + ", expected " + expected);
            }
            for (int i = 0; i < TrialData.ITEMS_PER_ORDER; i++) {
                long item = TrialData.item(order, i);
                Integer quantity = live.items().get(item);
                int expectedQuantity = writes.items().getOrDefault(item, TrialData.quantity(item));
                if (quantity == null) {
                    add(Kind.OVER_DELETED, "item " + item + " of kept order " + order + " is gone");
                } else if (quantity != expectedQuantity) {
                    add(
                            Kind.NEWER_WRITE_LOST,
                            "item " + item + " holds quantity " + quantity + ", expected " + expectedQuantity);
                }
            }
        } else {
            if (total != null) {
                add(Kind.NOT_DELETED, "order " + order + " is still there (total " + total + ")");
            }
            for (int i = 0; i < TrialData.ITEMS_PER_ORDER; i++) {
                long item = TrialData.item(order, i);
                if (live.items().containsKey(item)) {
                    add(Kind.NOT_DELETED, "item " + item + " of order " + order + " is still there");
                }
            }
        }
    }

    /** Each row gone has exactly one record in the deletion log; rows the run had to keep have none. */
    void log(
            Live live,
            Map<String, Integer> profileRecords,
            Map<String, Integer> orderRecords,
            String profiles,
            String orders) {
        for (long member : data.members()) {
            if (!writes.uncertainProfiles().contains(member)) {
                int records = profileRecords.getOrDefault(ChaosStores.profileKeyHash(profiles, member), 0);
                logged("profile " + member, !live.profiles().containsKey(member), mustKeepUntouched(member), records);
            }
            for (int o = 0; o < TrialData.ORDERS_PER_MEMBER; o++) {
                long order = TrialData.order(member, o);
                if (!writes.uncertainOrders().contains(order)) {
                    int records = orderRecords.getOrDefault(ChaosStores.orderKeyHash(orders, order), 0);
                    logged("order " + order, !live.orders().containsKey(order), mustKeepUntouched(member), records);
                }
            }
        }
    }

    private void logged(String row, boolean gone, boolean untouchable, int records) {
        if (gone && records == 0) {
            add(Kind.LOG_MISSING, row + " is gone and has no record in the deletion log");
        } else if (records > 1) {
            add(Kind.LOG_DUPLICATE, row + " has " + records + " records in the deletion log");
        } else if (untouchable && records > 0) {
            add(Kind.LOG_OF_KEPT_ROW, row + " had to be kept and has a record in the deletion log");
        }
    }

    /**
     * The receipts' deleted counts against the rows the engines no longer hold. A profile the live writer rewrote
     * after its read may be counted deleted (its older cells were) while its newer cell keeps the row: that is the
     * only slack, and only for the profiles.
     */
    void receipts(Live live, long profilesReported, long ordersReported) {
        long profilesGone = data.members().stream()
                .filter(m -> !live.profiles().containsKey(m))
                .count();
        long slack = writes.profiles().size() + writes.uncertainProfiles().size();
        if (profilesReported < profilesGone || profilesReported > profilesGone + slack) {
            add(
                    Kind.RECEIPT_MISMATCH,
                    "the profile runs' receipts report " + profilesReported + " deleted, the table lacks "
                            + profilesGone + " profiles");
        }
        long ordersGone = data.members().stream()
                .flatMap(m -> IntStream.range(0, TrialData.ORDERS_PER_MEMBER).mapToObj(o -> TrialData.order(m, o)))
                .filter(order -> !live.orders().containsKey(order))
                .count();
        long orderSlack = writes.uncertainOrders().size();
        if (ordersReported < ordersGone || ordersReported > ordersGone + orderSlack) {
            add(
                    Kind.RECEIPT_MISMATCH,
                    "the order runs' receipts report " + ordersReported + " deleted, the table lacks " + ordersGone
                            + " orders");
        }
    }

    // ---- after restore by run ---------------------------------------------------------------------------------------

    /** Restore by run brought back exactly what was deleted and changed nothing that was there. */
    void restored(Live before, Live after) {
        for (long member : data.members()) {
            if (!writes.uncertainProfiles().contains(member)) {
                List<String> was = before.profiles().get(member);
                List<String> now = after.profiles().get(member);
                String late = writes.profiles().get(member);
                List<String> original = originalProfile(member);
                if (late != null) {
                    // the newer cell stays; the older ones the run deleted come back beside it
                    List<String> expected = Arrays.asList(late, original.get(1), original.get(2));
                    if (now == null || !Objects.equals(now.get(0), late)) {
                        add(
                                Kind.RESTORE_OVERWROTE,
                                "profile " + member + " holds " + now + " after the restore, its newer" + " write was "
                                        + late);
                    } else if (!expected.equals(now)) {
                        add(
                                Kind.RESTORE_MISSING,
                                "profile " + member + " holds " + now + " after the restore, expected " + expected);
                    }
                } else if (was == null) {
                    if (!original.equals(now)) {
                        add(
                                Kind.RESTORE_MISSING,
                                "profile " + member + " holds " + now + " after the restore, expected " + original);
                    }
                } else if (!was.equals(now)) {
                    add(Kind.RESTORE_OVERWROTE, "profile " + member + " held " + was + ", after the restore " + now);
                }
            }
            for (int o = 0; o < TrialData.ORDERS_PER_MEMBER; o++) {
                long order = TrialData.order(member, o);
                if (!writes.uncertainOrders().contains(order)) {
                    restoredOrder(before, after, order);
                }
            }
        }
    }

    private void restoredOrder(Live before, Live after, long order) {
        BigDecimal was = before.orders().get(order);
        BigDecimal now = after.orders().get(order);
        if (was == null) {
            if (now == null || TrialData.total(order).compareTo(now) != 0) {
                add(
                        Kind.RESTORE_MISSING,
                        "order " + order + " holds " + now + " after the restore, expected " + TrialData.total(order));
            }
        } else if (now == null || was.compareTo(now) != 0) {
            add(Kind.RESTORE_OVERWROTE, "order " + order + " held " + was + ", after the restore " + now);
        }
        for (int i = 0; i < TrialData.ITEMS_PER_ORDER; i++) {
            long item = TrialData.item(order, i);
            Integer wasQuantity = before.items().get(item);
            Integer nowQuantity = after.items().get(item);
            if (wasQuantity == null) {
                if (nowQuantity == null || nowQuantity != TrialData.quantity(item)) {
                    add(
                            Kind.RESTORE_MISSING,
                            "item " + item + " holds " + nowQuantity + " after the restore, expected "
                                    + TrialData.quantity(item));
                }
            } else if (!wasQuantity.equals(nowQuantity)) {
                add(
                        Kind.RESTORE_OVERWROTE,
                        "item " + item + " held " + wasQuantity + ", after the restore " + nowQuantity);
            }
        }
    }

    // ---- the plan -------------------------------------------------------------------------------------------------

    private boolean mustKeep(long member, long order) {
        return !data.deletable(member)
                || writes.orders().containsKey(order)
                || writes.items().containsKey(TrialData.item(order, 0));
    }

    /** Kept by the plan itself (not departed, back, or rewritten before the run): no task may ever name it. */
    private boolean mustKeepUntouched(long member) {
        return !data.deletable(member);
    }

    private BigDecimal expectedTotal(long member, long order) {
        BigDecimal late = writes.orders().get(order);
        if (late != null) {
            return late;
        }
        return data.rewritten().contains(member) ? TrialData.rewrittenTotal(order) : TrialData.total(order);
    }

    private List<String> originalProfile(long member) {
        String name =
                data.rewritten().contains(member) ? TrialData.rewrittenName(member) : TrialData.displayName(member);
        return Arrays.asList(name, TrialData.email(member), TrialData.country(member));
    }

    private String why(long member) {
        if (!TrialData.departed(member)) {
            return "not departed";
        }
        return data.reactivated().contains(member) ? "came back before the run" : "written after the backup";
    }

    private String orderWhy(long member, long order) {
        if (writes.orders().containsKey(order) || writes.items().containsKey(TrialData.item(order, 0))) {
            return "written by live traffic after the cut-off";
        }
        return why(member);
    }
}
