package io.erasure.chaos;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * What one trial's live data is, and so what a correct platform leaves of it. Members {@code base+1 .. base+}
 * {@value #MEMBERS}; every {@value #DEPARTED_EVERY}th has left past the grace period. Each member has a Cassandra
 * profile (cached in Redis) and {@value #ORDERS_PER_MEMBER} PostgreSQL orders of {@value #ITEMS_PER_ORDER} items each.
 * Among the departed, chosen by the trial's seed:
 * <ul>
 *   <li>{@link #reactivated()}: come back after the backups (before the run): nothing of theirs may go;</li>
 *   <li>{@link #rewritten()}: their profile and orders are written again after the backups: they must survive;</li>
 *   <li>{@link #late()}: a live writer rewrites their profile, first order and second order's first item while the
 *       run deletes ({@link LiveWriter}); each write that found its row must survive, the rest may be deleted.</li>
 * </ul>
 * Ids do not overlap between trials, so the deletion log's records of one trial never match another's rows.
 */
record TrialData(int trial, long base, Set<Long> reactivated, Set<Long> rewritten, Set<Long> late) {

    static final int MEMBERS = 1_000;
    static final int DEPARTED_EVERY = 10;
    static final int ORDERS_PER_MEMBER = 2;
    static final int ITEMS_PER_ORDER = 2;
    static final int REACTIVATED = 3;
    static final int REWRITTEN = 3;
    static final int LATE = 4;

    TrialData {
        reactivated = Set.copyOf(reactivated);
        rewritten = Set.copyOf(rewritten);
        late = Set.copyOf(late);
    }

    static TrialData plan(int trial, Random random) {
        long base = (trial + 1L) * 100_000L;
        List<Long> departed = new ArrayList<>();
        for (long member = base + 1; member <= base + MEMBERS; member++) {
            if (departed(member)) {
                departed.add(member);
            }
        }
        Collections.shuffle(departed, random);
        int r = REACTIVATED;
        int w = r + REWRITTEN;
        return new TrialData(
                trial,
                base,
                Set.copyOf(departed.subList(0, r)),
                Set.copyOf(departed.subList(r, w)),
                Set.copyOf(departed.subList(w, w + LATE)));
    }

    static boolean departed(long member) {
        return member % DEPARTED_EVERY == 0;
    }

    /** Departed, still gone at validation, and written before the backup only: the run must delete it. */
    boolean deletable(long member) {
        return departed(member) && !reactivated.contains(member) && !rewritten.contains(member);
    }

    List<Long> members() {
        List<Long> all = new ArrayList<>(MEMBERS);
        for (long member = base + 1; member <= base + MEMBERS; member++) {
            all.add(member);
        }
        return all;
    }

    static long order(long member, int o) {
        return member * 10 + o;
    }

    static long item(long order, int i) {
        return order * 10 + i;
    }

    static String displayName(long member) {
        return "Member " + member;
    }

    static String rewrittenName(long member) {
        return "Member " + member + " (written after the backup)";
    }

    static String email(long member) {
        return "member" + member + "@example.com";
    }

    static String country(long member) {
        return member % 3 == 0 ? "FR" : "NL";
    }

    static BigDecimal total(long order) {
        return BigDecimal.valueOf(1000 + order % 10_000, 2);
    }

    static BigDecimal rewrittenTotal(long order) {
        return BigDecimal.valueOf(99_900 + order % 100, 2);
    }

    static int quantity(long item) {
        return (int) (item % 10) + 1;
    }

    static String cacheKey(long member) {
        return "chaos-profile:" + member;
    }
}
