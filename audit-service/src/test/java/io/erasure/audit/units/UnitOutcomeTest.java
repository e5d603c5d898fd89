package io.erasure.audit.units;

import static org.assertj.core.api.Assertions.assertThat;

import io.erasure.support.json.PlatformJson;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

class UnitOutcomeTest {

    private final JsonMapper json = PlatformJson.mapper();

    @Test
    void aMarkerWrittenBeforeDeletedNotPurgedWasCountedReadsAsNone() {
        UnitOutcome old =
                json.readValue("{\"partIndex\": 3, \"rowsScanned\": 10, \"candidates\": 2}", UnitOutcome.class);

        assertThat(old).isEqualTo(new UnitOutcome(3, 10, 2, 0));
    }

    @Test
    void theRunsTotalsAddTheUnitsUp() {
        assertThat(UnitOutcome.sum(List.of(new UnitOutcome(0, 10, 2, 1), new UnitOutcome(1, 5, 0, 4))))
                .isEqualTo(new UnitOutcome(-1, 15, 2, 5));
        assertThat(UnitOutcome.sum(List.of())).isEqualTo(new UnitOutcome(-1, 0, 0, 0));
    }
}
