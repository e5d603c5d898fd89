package io.erasure.model.event;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;

/** Event: all of the run's deletion tasks are on {@code erasure.deletion.tasks}. */
public record TasksPublished(String dataset, int taskCount, long keyCount) implements EventPayload, RunScoped {

    public TasksPublished {
        Names.datasetName("dataset", dataset);
        Require.nonNegative("taskCount", taskCount);
        Require.nonNegative("keyCount", keyCount);
    }
}
