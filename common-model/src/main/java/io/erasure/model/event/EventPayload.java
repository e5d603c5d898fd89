package io.erasure.model.event;

import com.fasterxml.jackson.annotation.JsonSubTypes;

/**
 * The payload of an {@link EventEnvelope}. Its event type is the simple class name, written as the
 * envelope's {@code eventType}; every payload is listed here so readers resolve the concrete type.
 */
@JsonSubTypes({
    @JsonSubTypes.Type(value = AuditRequested.class, name = "AuditRequested"),
    @JsonSubTypes.Type(value = ValidationRequested.class, name = "ValidationRequested"),
    @JsonSubTypes.Type(value = DeletionAuthorized.class, name = "DeletionAuthorized"),
    @JsonSubTypes.Type(value = RunCancelled.class, name = "RunCancelled"),
    @JsonSubTypes.Type(value = AuditCompleted.class, name = "AuditCompleted"),
    @JsonSubTypes.Type(value = AuditFailed.class, name = "AuditFailed"),
    @JsonSubTypes.Type(value = ValidationCompleted.class, name = "ValidationCompleted"),
    @JsonSubTypes.Type(value = ValidationFailed.class, name = "ValidationFailed"),
    @JsonSubTypes.Type(value = TasksPublished.class, name = "TasksPublished"),
    @JsonSubTypes.Type(value = BatchCompleted.class, name = "BatchCompleted"),
    @JsonSubTypes.Type(value = BatchFailed.class, name = "BatchFailed"),
    @JsonSubTypes.Type(value = LookupResolved.class, name = "LookupResolved"),
    @JsonSubTypes.Type(value = AuditUnit.class, name = "AuditUnit"),
    @JsonSubTypes.Type(value = ControlSignal.class, name = "ControlSignal"),
    @JsonSubTypes.Type(value = ForwardDeletionRequested.class, name = "ForwardDeletionRequested")
})
public sealed interface EventPayload
        permits AuditRequested,
                ValidationRequested,
                DeletionAuthorized,
                RunCancelled,
                AuditCompleted,
                AuditFailed,
                ValidationCompleted,
                ValidationFailed,
                TasksPublished,
                BatchCompleted,
                BatchFailed,
                LookupResolved,
                AuditUnit,
                ControlSignal,
                ForwardDeletionRequested {

    /** The {@code eventType} of a payload class. */
    static String typeName(Class<? extends EventPayload> type) {
        return type.getSimpleName();
    }
}
