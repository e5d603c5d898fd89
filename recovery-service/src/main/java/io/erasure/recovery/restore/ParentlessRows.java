package io.erasure.recovery.restore;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The rows of one recovery that were refused because their parent row was not in the store yet
 * ({@link Outcome#PARENT_MISSING}): a child table's row, or a tree's, whose parent's record comes later in the scope.
 * They are not settled when refused. Only eight bytes of each record id are kept (not the record), and each later pass
 * over the scope tries those rows again, until a pass restores none; then one last pass settles what is still refused
 * as FAILED. At most {@value #MOST_PASSES} passes: no hierarchy is deeper than that before the last.
 */
final class ParentlessRows {

    static final int MOST_PASSES = 64;

    /** Refused in the pass being read (or the first), to try in the next one. */
    private Set<Long> refused = new HashSet<>();
    /** Refused in the previous pass, tried in this one. */
    private Set<Long> retrying = new HashSet<>();
    private boolean restoredInPass;
    private boolean lastPass;
    private int passes;

    /**
     * The items to store now: every settled one, a parentless row turned FAILED on the last pass; the other parentless
     * rows wait for the next pass.
     */
    List<RecoveryItem> settle(List<RecoveryItem> items) {
        List<RecoveryItem> settled = new ArrayList<>(items.size());
        for (RecoveryItem item : items) {
            if (item.outcome() != Outcome.PARENT_MISSING) {
                restoredInPass |= item.outcome() == Outcome.RESTORED;
                settled.add(item);
            } else if (lastPass) {
                settled.add(new RecoveryItem(item.recordId(), item.primaryKey(), Outcome.FAILED, "its parent row is not in"
                        + " the store and none of this recovery's records brought it back: restore the parent first, then"
                        + " this row again (" + item.detail() + ")", item.deletedAt(), item.runId()));
            } else {
                refused.add(idBits(item.recordId()));
            }
        }
        return settled;
    }

    /** Starts another pass if rows wait for one: true if the scope is to be read again. */
    boolean startPass() {
        if (refused.isEmpty()) {
            return false;
        }
        retrying = refused;
        refused = new HashSet<>();
        passes++;
        restoredInPass = false;
        return true;
    }

    /** True (once) if the record waits for this pass: it is to be restored again. */
    boolean retries(String recordId) {
        return retrying.remove(idBits(recordId));
    }

    /** The pass has read the whole scope: the next is the last one if this one restored nothing, or it was the last. */
    void passDone() {
        if (lastPass) {
            refused.clear();
        }
        lastPass = !restoredInPass || passes + 1 >= MOST_PASSES;
    }

    /** The first 16 hex digits of a record id (a SHA-256), or its string hash if it is not hex. */
    private static long idBits(String recordId) {
        try {
            return Long.parseUnsignedLong(recordId.substring(0, Math.min(16, recordId.length())), 16);
        } catch (NumberFormatException notHex) {
            return recordId.hashCode();
        }
    }
}
