package io.erasure.model.event;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.trust.Authorization;

/**
 * Command: the run may delete its final set. Only the control plane sends it: after a human
 * approval, or at once when the run is under its dataset's limit.
 *
 * <p>{@code authorization} is the control plane's signature of that decision ({@link Authorization.Kind#RUN}: the run,
 * its dataset, the digest of its frozen spec and of its final-set manifest, the cut-off, the basis and who decided).
 * Validation copies it into every task of the run; the deletion service refuses a task without it. A command sent
 * before it existed has none, and its tasks are refused.
 */
public record DeletionAuthorized(String dataset, Basis basis, String authorizedBy, Authorization authorization)
        implements EventPayload, RunScoped {

    public enum Basis {
        APPROVED,
        UNDER_LIMIT
    }

    public DeletionAuthorized {
        Names.datasetName("dataset", dataset);
        Require.nonNull("basis (APPROVED or UNDER_LIMIT)", basis);
        Require.nonBlank("authorizedBy", authorizedBy);
        if (authorization != null
                && (authorization.kind() != Authorization.Kind.RUN
                        || !authorization.dataset().equals(dataset))) {
            throw new IllegalArgumentException("authorization must be a RUN authorization of dataset '" + dataset
                    + "', got " + authorization.kind() + " of '" + authorization.dataset() + "'");
        }
    }
}
