package io.erasure.store.s3.plan;

import io.erasure.store.spi.PlannedStatement;
import java.util.List;
import java.util.Objects;

/**
 * One object delete of a plan, as a dry-run shows it and as it is executed:
 * {@code DELETE s3://<bucket>/<key> IF-MATCH ?} with the ETag read at plan time bound to the placeholder.
 * The executor parses the statements back, so what a dry-run prints is exactly what runs.
 */
public record ObjectDelete(String bucket, String key, String etag) {

    private static final String VERB = "DELETE s3://";
    private static final String CONDITION = " IF-MATCH ?";

    public ObjectDelete {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(etag, "etag");
    }

    public PlannedStatement toStatement() {
        return new PlannedStatement(VERB + bucket + "/" + key + CONDITION, List.of(etag));
    }

    /**
     * The delete a statement of a plan made for {@code bucket} describes.
     *
     * @throws IllegalArgumentException if the statement was not made by an adapter on {@code bucket}
     */
    public static ObjectDelete parse(String bucket, PlannedStatement statement) {
        String text = statement.text();
        String start = VERB + bucket + "/";
        if (!text.startsWith(start)
                || !text.endsWith(CONDITION)
                || text.length() <= start.length() + CONDITION.length()
                || statement.values().size() != 1
                || !(statement.values().get(0) instanceof String etag)) {
            throw new IllegalArgumentException(
                    "statement '" + statement.describe() + "' was not planned by the S3 adapter" + " of bucket '"
                            + bucket + "'; only the adapter that made a plan may execute it");
        }
        return new ObjectDelete(bucket, text.substring(start.length(), text.length() - CONDITION.length()), etag);
    }
}
