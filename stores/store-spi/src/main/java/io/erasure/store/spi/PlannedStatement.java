package io.erasure.store.spi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One statement of a delete plan exactly as it will be executed: the text with placeholders and the
 * values bound to them. Identifiers in the text are validated and quoted; values are never inlined.
 */
public record PlannedStatement(String text, List<Object> values) {

    public PlannedStatement {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("statement text is required");
        }
        // values may contain nulls (SQL NULL), so no List.copyOf
        values = Collections.unmodifiableList(new ArrayList<>(values));
    }

    /** The statement and its values on one line, as a dry-run report shows it. */
    public String describe() {
        return text + " -- values " + values.stream().map(String::valueOf).collect(Collectors.joining(", ", "[", "]"));
    }
}
