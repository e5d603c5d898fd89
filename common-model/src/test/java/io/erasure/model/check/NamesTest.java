package io.erasure.model.check;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NamesTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "users; DROP TABLE x",
                "Users",
                "users\"",
                "1users",
                "",
                "user-table",
                "a b",
                "abcdefghijabcdefghijabcdefghijabcdefghijabcdefghi"
            })
    void rejectsUnsafeIdentifiersNamingTheField(String value) {
        assertThatThrownBy(() -> Names.identifier("table", value))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("table must be a lower-case identifier")
                .hasMessageContaining("[a-z_][a-z0-9_]{0,47}");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {"users", "_tmp", "a", "user_events_2024", "abcdefghijabcdefghijabcdefghijabcdefghijabcdefgh"})
    void acceptsSafeIdentifiers(String value) {
        assertThat(Names.identifier("table", value)).isEqualTo(value);
    }

    @Test
    void quotesOnlySafeIdentifiers() {
        assertThat(Names.quoted("users")).isEqualTo("\"users\"");
        assertThat(Names.quotedQualified("shop", "orders")).isEqualTo("\"shop\".\"orders\"");
        assertThatThrownBy(() -> Names.quoted("x\" ; DROP TABLE y; --"))
                .hasMessageStartingWith("identifier must be a lower-case identifier");
    }

    @Test
    void nullIdentifierNamesTheField() {
        assertThatThrownBy(() -> Names.identifier("keyspace", null)).hasMessage("keyspace is required but was null");
    }

    @Test
    void datasetNamesFollowThePatternAndGlobalIsReserved() {
        assertThat(Names.datasetName("name", "user-events")).isEqualTo("user-events");
        assertThatThrownBy(() -> Names.datasetName("name", "x")).hasMessageStartingWith("name must match");
        assertThatThrownBy(() -> Names.datasetName("name", "-users")).hasMessageStartingWith("name must match");
        assertThatThrownBy(() -> Names.datasetName("name", "User_Events")).hasMessageStartingWith("name must match");
        assertThatThrownBy(() -> Names.datasetName("name", "global")).hasMessageContaining("kill switches");
    }

    @Test
    void connectionRefIsANameNotCredentials() {
        assertThat(Names.connectionRef("connectionRef", "cassandra-main")).isEqualTo("cassandra-main");
        assertThatThrownBy(() -> Names.connectionRef("connectionRef", "postgres://app:secret@db:5432/x"))
                .hasMessageStartingWith("connectionRef must be the name of a connection")
                .hasMessageContaining("not a URL or credentials");
    }

    @Test
    void echoCutsHugeValues() {
        String huge = "x".repeat(10_000);
        assertThatThrownBy(() -> Names.identifier("column", huge))
                .message()
                .hasSizeLessThan(500)
                .contains("x\u2026(9800 more)'");
    }
}
