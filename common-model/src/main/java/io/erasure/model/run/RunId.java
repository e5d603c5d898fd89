package io.erasure.model.run;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.erasure.model.check.Names;
import java.util.UUID;

/** A run's id, {@code run-<uuid>} when generated; safe in Kafka keys and S3 keys. Serialized as a string. */
public record RunId(String value) {

    public RunId {
        Names.opaqueId("runId", value);
    }

    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static RunId of(String value) {
        return new RunId(value);
    }

    public static RunId random() {
        return new RunId("run-" + UUID.randomUUID());
    }

    @JsonValue
    @Override
    public String value() {
        return value;
    }

    @Override
    public String toString() {
        return value;
    }
}
