package io.erasure.store.cassandra.lookup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class IdentifierRouteTest {

    @Test
    void builtInSecondaryIndexesAndSaiAnswerEqualityOtherCustomIndexesDoNot() {
        assertThat(IdentifierRoute.answersEquality("COMPOSITES", Map.of("target", "email")))
                .isTrue();
        assertThat(IdentifierRoute.answersEquality(
                        "CUSTOM",
                        Map.of("target", "email", "class_name", "org.apache.cassandra.index.sai.StorageAttachedIndex")))
                .isTrue();
        assertThat(IdentifierRoute.answersEquality(
                        "CUSTOM", Map.of("target", "email", "class_name", "org.apache.cassandra.index.sasi.SASIIndex")))
                .isFalse();
        assertThat(IdentifierRoute.answersEquality("CUSTOM", Map.of("target", "email")))
                .isFalse();
    }

    @Test
    void aTargetMustBeTheWholeColumn() {
        assertThat(IdentifierRoute.targets("email", "email")).isTrue();
        assertThat(IdentifierRoute.targets("\"Email\"", "Email")).isTrue();
        assertThat(IdentifierRoute.targets("full(frozen_ids)", "frozen_ids")).isTrue();
        assertThat(IdentifierRoute.targets("values(tags)", "tags")).isFalse();
        assertThat(IdentifierRoute.targets("keys(tags)", "tags")).isFalse();
        assertThat(IdentifierRoute.targets("email_hash", "email")).isFalse();
        assertThat(IdentifierRoute.targets(null, "email")).isFalse();
    }
}
