package io.erasure.model.task;

import io.erasure.model.check.Names;
import java.util.List;

/**
 * What a {@link DeletionTask} does to the rows its keys name. A task's wire form keeps this as {@code lookupColumn}
 * and {@code clearColumns}; code asks {@link DeletionTask#effect()} and switches over this type instead of testing
 * fields for null and emptiness.
 */
public sealed interface TaskEffect {

    /** Deletes the rows. */
    Delete DELETE = new Delete();

    /** The rows' own effect once their keys are known: this effect, or a lookup's {@link Lookup#onRows()}. */
    TaskEffect onRows();

    /** Deletes the rows: a delete conditioned on the cut-off, logged write-ahead. */
    record Delete() implements TaskEffect {
        @Override
        public TaskEffect onRows() {
            return this;
        }
    }

    /**
     * Anonymises the rows: keeps them and clears (sets to null) {@code columns}, conditioned on the cut-off and logged
     * write-ahead like a delete. Only in forward deletion of a dataset itself.
     */
    record Clear(List<String> columns) implements TaskEffect {

        public Clear {
            columns = List.copyOf(columns);
            if (columns.isEmpty()) {
                throw new IllegalArgumentException("an anonymising effect clears at least one column");
            }
        }

        @Override
        public TaskEffect onRows() {
            return this;
        }
    }

    /**
     * Finds rows first: the task's keys are values of {@code column}, the dataset's identifier column, indexed but not
     * its key. The deletion service resolves them into the rows' keys with bounded reads and publishes ordinary tasks
     * with {@code onRows} ({@link DeletionTask#resolvedFrom}); it changes nothing itself. Only in forward deletion.
     */
    record Lookup(String column, TaskEffect onRows) implements TaskEffect {

        public Lookup {
            Names.identifier("lookupColumn", column);
            if (!(onRows instanceof Delete || onRows instanceof Clear)) {
                throw new IllegalArgumentException("a lookup's rows are deleted or cleared, not looked up again");
            }
        }
    }
}
