package io.erasure.store.http.request;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PayloadTemplateTest {

    private static final String TEMPLATE =
            "{\"dataset\": \"{dataset}\", \"batch\": \"{batchId}\", \"cutoff\": {cutoffMicros}," + " \"keys\": {keys}}";

    @Test
    void everyPlaceholderIsFilledIn() {
        PayloadTemplate template = new PayloadTemplate(TEMPLATE, List.of("tenant", "id"));

        String payload = template.render(
                "orders--search",
                "batch-7",
                1_700_000_000_000_000L,
                List.of(Map.of("id", 1L, "tenant", "acme"), Map.of("id", 2L, "tenant", "acme")));

        assertThat(payload)
                .isEqualTo("{\"dataset\": \"orders--search\", \"batch\": \"batch-7\", \"cutoff\": 1700000000000000,"
                        + " \"keys\": [{\"tenant\":\"acme\",\"id\":1},{\"tenant\":\"acme\",\"id\":2}]}");
    }

    @Test
    void stringsAreJsonEscapedAndNeverExpandedAgain() {
        PayloadTemplate template = new PayloadTemplate(TEMPLATE, List.of("name"));
        Map<String, Object> key = new LinkedHashMap<>();
        key.put("name", "a \"quoted\" \\ {dataset} \n name");

        String payload = template.render("d", "b", 1L, List.of(key));

        assertThat(payload).contains("\"keys\": [{\"name\":\"a \\\"quoted\\\" \\\\ {dataset} \\n name\"}]");
    }

    @Test
    void placeholdersNotKnownYetStayInTheText() {
        PayloadTemplate template = new PayloadTemplate(TEMPLATE, List.of("id"));

        String payload = template.render("d", null, null, List.of(Map.of("id", 5L)));

        assertThat(payload)
                .isEqualTo("{\"dataset\": \"d\", \"batch\": \"{batchId}\", \"cutoff\": {cutoffMicros},"
                        + " \"keys\": [{\"id\":5}]}");
    }
}
