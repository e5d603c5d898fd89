package io.erasure.controlplane.registry;

import io.erasure.model.dataset.DatasetSpec;
import java.time.Instant;

/** A registered dataset as the API shows it: its current spec and registration facts. */
public record DatasetView(
        DatasetSpec spec,
        boolean enabled,
        int revision,
        String registeredBy,
        Instant registeredAt,
        String updatedBy,
        Instant updatedAt,
        Instant nextRunAt) {}
