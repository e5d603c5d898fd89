package io.erasure.model.contract;

import static io.erasure.model.Fixtures.key;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.event.ControlSignal;
import io.erasure.model.run.RunId;
import org.junit.jupiter.api.Test;

class TopicsTest {

    @Test
    void topicNamesAreTheContract() {
        assertThat(Topics.ALL)
                .containsExactly(
                        "erasure.run.commands",
                        "erasure.run.events",
                        "erasure.audit.units",
                        "erasure.deletion.tasks",
                        "erasure.deletion.log",
                        "erasure.control",
                        "erasure.forward.requests",
                        "erasure.deletion.log.dead-letter",
                        "erasure.deletion.tasks.refused",
                        "erasure.throttle.samples");
    }

    @Test
    void keysAreStableAcrossColumnOrderAndNumberTypes() {
        assertThat(Topics.runKey(RunId.of("run-1"))).isEqualTo("run-1");
        assertThat(Topics.taskKey("orders", key("customer_id", 1))).isEqualTo("orders|{\"customer_id\":1}");
        assertThat(Topics.logKey("orders", key("order_id", "o", "customer_id", 1L)))
                .isEqualTo(Topics.logKey("orders", key("customer_id", 1, "order_id", "o")))
                .startsWith("orders|")
                .doesNotContain("customer_id")
                .hasSize("orders|".length() + 64);
        assertThat(Topics.forwardRequestKey("customers", "42")).isEqualTo("customers|42");
    }

    @Test
    void controlKeysAreGlobalOrADataset() {
        assertThat(Topics.controlKey((String) null)).isEqualTo("global");
        assertThat(Topics.controlKey("orders")).isEqualTo("orders");
        assertThat(Topics.controlKey(ControlSignal.global(true, "oncall", "incident")))
                .isEqualTo("global");
        assertThatThrownBy(() -> Topics.controlKey("global")).hasMessageContaining("kill switches");
    }
}
