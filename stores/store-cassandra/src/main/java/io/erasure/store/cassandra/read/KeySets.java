package io.erasure.store.cassandra.read;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Splits one call's keys into read statements, without running anything. Keys whose identities agree on the
 * first {@code groupColumns} components (the partition key of a clustered table; the partition columns but the
 * last of one without clustering columns, so none for a single-column partition key) share statements of at most
 * {@code maxTerms} distinct keys each; two spellings of one row are one term. Within a group the terms are in
 * token order, so the keys of one statement tend to share their replicas. A key without an identity (the node
 * decides which row it names) is read on its own.
 */
final class KeySets {

    /** One read statement: the indices of the keys it asks for (one per distinct identity), or one point read. */
    record KeySet(List<Integer> terms, boolean point) {

        KeySet {
            terms = List.copyOf(terms);
        }
    }

    private KeySets() {}

    /**
     * The statements for keys of {@code identities} (null: read on its own). {@code tokens} holds each key's token
     * (null for none), or is null when the ring is unknown; keys then keep their order.
     */
    static <T extends Comparable<? super T>> List<KeySet> plan(
            List<List<Object>> identities, int groupColumns, List<T> tokens, int maxTerms) {
        if (maxTerms < 1) {
            throw new IllegalArgumentException("maxTerms must be at least 1, got " + maxTerms);
        }
        Map<List<Object>, List<Integer>> groups = new LinkedHashMap<>();
        Map<List<Object>, Integer> seen = new LinkedHashMap<>();
        List<KeySet> sets = new ArrayList<>();
        List<KeySet> points = new ArrayList<>();
        for (int i = 0; i < identities.size(); i++) {
            List<Object> identity = identities.get(i);
            if (identity == null) {
                points.add(new KeySet(List.of(i), true));
            } else if (seen.putIfAbsent(identity, i) == null) {
                groups.computeIfAbsent(identity.subList(0, groupColumns), g -> new ArrayList<>())
                        .add(i);
            }
        }
        for (List<Integer> members : groups.values()) {
            if (tokens != null) {
                members.sort(Comparator.comparing(tokens::get, Comparator.nullsLast(Comparator.<T>naturalOrder())));
            }
            for (int from = 0; from < members.size(); from += maxTerms) {
                sets.add(new KeySet(members.subList(from, Math.min(members.size(), from + maxTerms)), false));
            }
        }
        sets.addAll(points);
        return sets;
    }

    /** {@code terms} rounded up to a power of two, at most {@code maxTerms}: few statement texts to prepare. */
    static int paddedSize(int terms, int maxTerms) {
        int size = Integer.highestOneBit(terms);
        if (size < terms) {
            size <<= 1;
        }
        return Math.min(size, Math.max(terms, maxTerms));
    }
}
