package io.erasure.store.cassandra.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.store.cassandra.read.KeySets.KeySet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeySetsTest {

    @Test
    void keysOfDifferentPartitionsShareStatementsUpToTheBound() {
        List<List<Object>> ids = new ArrayList<>();
        for (int i = 0; i < 250; i++) {
            ids.add(List.of(i));
        }
        List<KeySet> sets = KeySets.plan(ids, 0, null, 100);

        assertThat(sets).extracting(set -> set.terms().size()).containsExactly(100, 100, 50);
        assertThat(sets).noneMatch(KeySet::point);
        assertThat(sets.stream().flatMap(set -> set.terms().stream())).containsExactlyElementsOf(range(250));
    }

    @Test
    void aStatementNeverSpansTwoGroups() {
        // (partition, clustering): a clustered table's statements each read one partition
        List<List<Object>> ids =
                List.of(List.of("a", 1), List.of("b", 1), List.of("a", 2), List.of("a", 3), List.of("b", 2));
        List<KeySet> sets = KeySets.plan(ids, 1, null, 2);

        assertThat(sets).extracting(KeySet::terms).containsExactly(List.of(0, 2), List.of(3), List.of(1, 4));
    }

    @Test
    void twoSpellingsOfOneRowAreOneTerm() {
        List<KeySet> sets = KeySets.plan(List.of(List.of(7), List.of(8), List.of(7)), 0, null, 100);

        assertThat(sets).extracting(KeySet::terms).containsExactly(List.of(0, 1));
    }

    @Test
    void aKeyTheNodeDecidesIsReadOnItsOwn() {
        List<KeySet> sets = KeySets.plan(Arrays.asList(List.of(1), null, List.of(2)), 0, null, 100);

        assertThat(sets).containsExactly(new KeySet(List.of(0, 2), false), new KeySet(List.of(1), true));
    }

    @Test
    void keysAreChunkedInTokenOrderSoThatAStatementsKeysShareReplicas() {
        List<List<Object>> ids = List.of(List.of("w"), List.of("x"), List.of("y"), List.of("z"));
        List<Long> tokens = Arrays.asList(40L, 10L, null, 20L);

        List<KeySet> sets = KeySets.plan(ids, 0, tokens, 2);

        assertThat(sets).extracting(KeySet::terms).containsExactly(List.of(1, 3), List.of(0, 2));
    }

    @Test
    void inListsArePaddedToFewSizes() {
        assertThat(KeySets.paddedSize(1, 100)).isEqualTo(1);
        assertThat(KeySets.paddedSize(3, 100)).isEqualTo(4);
        assertThat(KeySets.paddedSize(64, 100)).isEqualTo(64);
        assertThat(KeySets.paddedSize(65, 100)).isEqualTo(100);
        assertThat(KeySets.paddedSize(100, 100)).isEqualTo(100);
        assertThat(KeySets.paddedSize(5, 6)).isEqualTo(6);
    }

    @Test
    void theBoundIsAtLeastOne() {
        assertThatThrownBy(() -> KeySets.plan(List.of(List.of(1)), 0, null, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static List<Integer> range(int n) {
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            all.add(i);
        }
        return all;
    }
}
