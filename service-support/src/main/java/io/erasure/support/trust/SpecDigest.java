package io.erasure.support.trust;

import io.erasure.model.check.Require;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.key.DeterministicId;
import java.nio.charset.StandardCharsets;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The digest of a frozen dataset spec that authorizations sign: SHA-256 (hex) of its canonical JSON (properties and
 * map entries sorted by name). The spec a task carries is read from JSON and written again here, so a signer and a
 * verifier agree exactly when the two specs are equal, field for field: another table, connection, key or copy, a
 * dropped condition, all give another digest.
 */
public final class SpecDigest {

    private static final JsonMapper CANONICAL = JsonMapper.builder()
            .enable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .build();

    private SpecDigest() {}

    public static String of(DatasetSpec spec) {
        Require.nonNull("spec", spec);
        String canonical = new String(CANONICAL.writeValueAsBytes(spec), StandardCharsets.UTF_8);
        return DeterministicId.sha256Hex("dataset-spec-v1", canonical);
    }
}
