package io.erasure.recovery.restore;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rows of one recovery that were refused because their parent row was not in the store yet
 * ({@link Outcome#PARENT_MISSING}): a child table's row, or a tree's, whose parent's record comes later in the scope.
 * They are not settled when refused; each later pass over the scope tries them again (a grandchild may need its
 * child's pass), until a pass restores none of them: then what is still refused is settled FAILED, its parent never
 * came back. At most {@value #MOST_PASSES} passes. Held: the refused row's outcome (key and ids, not its columns).
 */
final class ParentlessRows {

    static final int MOST_PASSES = 64;

    /** Refused in the pass being read (or the first), to try in the next one, by record id. */
    private Map<String, RecoveryItem> refused = new LinkedHashMap<>();
    /** Refused in the previous pass, tried in this one. */
    private Map<String, RecoveryItem> retrying = new LinkedHashMap<>();

    private boolean restoredInPass;
    private int passes;

    /** The items to store now: every settled one; the parentless rows wait for the next pass. */
    List<RecoveryItem> settle(List<RecoveryItem> items) {
        List<RecoveryItem> settled = new ArrayList<>(items.size());
        for (RecoveryItem item : items) {
            if (item.outcome() == Outcome.PARENT_MISSING) {
                refused.put(item.recordId(), item);
            } else {
                restoredInPass |= item.outcome() == Outcome.RESTORED;
                settled.add(item);
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
        refused = new LinkedHashMap<>();
        passes++;
        restoredInPass = false;
        return true;
    }

    /** True (once) if the record waits for this pass: it is to be restored again. */
    boolean retries(String recordId) {
        return retrying.remove(recordId) != null;
    }

    /**
     * The pass has read the whole scope. Returns what to settle now: rows that waited for it but were not in the log
     * any more, and, if the pass restored nothing (or it was the last allowed), every row still refused, FAILED.
     */
    List<RecoveryItem> passDone() {
        List<RecoveryItem> settled = new ArrayList<>();
        retrying.values()
                .forEach(item -> settled.add(failed(
                        item,
                        "its record was no longer in the log when it was"
                                + " tried again (purged or expired meanwhile)")));
        retrying.clear();
        if (!restoredInPass || passes >= MOST_PASSES) {
            refused.values()
                    .forEach(item -> settled.add(failed(
                            item,
                            "its parent row is not in the store and none of"
                                    + " this recovery's records brought it back: restore the parent first,"
                                    + " then this row again ("
                                    + item.detail() + ")")));
            refused.clear();
        }
        return settled;
    }

    private static RecoveryItem failed(RecoveryItem item, String detail) {
        return new RecoveryItem(
                item.recordId(), item.primaryKey(), Outcome.FAILED, detail, item.deletedAt(), item.runId());
    }
}
