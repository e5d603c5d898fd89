package io.erasure.store.s3.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.store.spi.PlannedStatement;
import java.util.List;
import org.junit.jupiter.api.Test;

class ObjectDeleteTest {

    @Test
    void aStatementShowsTheObjectAndItsEtagAndParsesBackToTheSameDelete() {
        ObjectDelete delete = new ObjectDelete("owner-exports", "exports/1/a IF-MATCH ?b.json", "\"abc\"");

        PlannedStatement statement = delete.toStatement();

        assertThat(statement.describe())
                .isEqualTo("DELETE s3://owner-exports/exports/1/a IF-MATCH ?b.json IF-MATCH ? -- values [\"abc\"]");
        assertThat(ObjectDelete.parse("owner-exports", statement)).isEqualTo(delete);
    }

    @Test
    void aStatementOfAnotherBucketOrAdapterIsRefused() {
        PlannedStatement statement = new ObjectDelete("owner-exports", "exports/1.json", "\"abc\"").toStatement();

        assertThatThrownBy(() -> ObjectDelete.parse("other-bucket", statement))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("only the adapter that made a plan");
        assertThatThrownBy(() -> ObjectDelete.parse(
                        "owner-exports", new PlannedStatement("DELETE FROM \"a\".\"b\" WHERE id = ?", List.of(1))))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
