package io.erasure.model.task;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import io.erasure.model.run.RunId;

/**
 * Why a {@link DeletionTask} exists: a run's deletion of its dataset's backlog, or a forward-deletion request (and the
 * copies either leads to). A task's wire form keeps the two as {@code runId} and {@code requestId}, exactly one set;
 * code asks {@link DeletionTask#origin()} and switches over this type instead of testing for nulls.
 */
public sealed interface TaskOrigin {

    /** The run's or the request's id: what task ids, log records and signatures are keyed by. */
    String id();

    /** How messages name this kind of origin: {@code run} or {@code request}. */
    String noun();

    /** A run's backlog deletion (audit, validation, authorization). */
    record Run(RunId runId) implements TaskOrigin {

        public Run {
            Require.nonNull("runId", runId);
        }

        @Override
        public String id() {
            return runId.value();
        }

        @Override
        public String noun() {
            return "run";
        }
    }

    /** A forward-deletion request (an identifier's TOMBSTONED event). */
    record Request(String requestId) implements TaskOrigin {

        public Request {
            Names.opaqueId("requestId", requestId);
        }

        @Override
        public String id() {
            return requestId;
        }

        @Override
        public String noun() {
            return "request";
        }
    }
}
