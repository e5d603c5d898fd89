package io.erasure.controlplane.registry;

import io.erasure.model.dataset.DatasetSpec;
import java.time.Instant;

/** One entry of a dataset's history. */
public record DatasetRevision(
        int revision, String change, DatasetSpec spec, boolean enabled, String changedBy, Instant changedAt) {}
