package io.erasure.store.postgres.restore;

import io.erasure.model.key.CanonicalKey;
import io.erasure.store.postgres.restore.RowRestorer.Pending;
import io.erasure.store.postgres.schema.DatasetShape;
import io.erasure.store.postgres.tree.TreeShape;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Orders rows to restore so that a parent is inserted before its children: the dataset's rows by depth in the tree
 * (path length in materialized-path mode, distance to the topmost restored ancestor in recursive mode), then the
 * child-table rows. The sort is stable, so rows of equal depth keep the order given.
 */
final class ParentsFirst {

    private ParentsFirst() {}

    static List<Pending> order(DatasetShape shape, List<Pending> rows) {
        Map<Pending, Integer> depth = new IdentityHashMap<>();
        shape.tree().ifPresent(tree -> {
            if (tree.mode() == TreeShape.Mode.MATERIALIZED_PATH) {
                String path = tree.pathColumn().orElseThrow();
                rows.stream()
                        .filter(r -> !r.child())
                        .forEach(r -> depth.put(r, slashes(r.values().get(path))));
            } else {
                depth.putAll(recursiveDepths(
                        shape.table().primaryKey().get(0),
                        tree.parentColumn().orElseThrow(),
                        rows.stream().filter(r -> !r.child()).toList()));
            }
        });
        List<Pending> ordered = new ArrayList<>(rows);
        ordered.sort(Comparator.comparingInt((Pending r) -> r.child() ? 1 : 0)
                .thenComparingInt(r -> depth.getOrDefault(r, 0)));
        return ordered;
    }

    private static int slashes(Object path) {
        return path == null
                ? 0
                : (int) path.toString().chars().filter(c -> c == '/').count();
    }

    private static Map<Pending, Integer> recursiveDepths(String keyColumn, String parentColumn, List<Pending> rows) {
        Map<String, Pending> byKey = new HashMap<>();
        rows.forEach(r -> byKey.put(id(keyColumn, r.values().get(keyColumn)), r));
        Map<Pending, Integer> depth = new IdentityHashMap<>();
        for (Pending row : rows) {
            // walk up iteratively (no recursion: trees may be hundreds of levels deep), stopping at a known depth or a
            // cycle
            List<Pending> chain = new ArrayList<>();
            Set<Pending> seen = Collections.newSetFromMap(new IdentityHashMap<>());
            Pending current = row;
            while (current != null && !depth.containsKey(current) && seen.add(current)) {
                chain.add(current);
                Object parent = current.values().get(parentColumn);
                current = parent == null ? null : byKey.get(id(keyColumn, parent));
            }
            int base = current != null && depth.containsKey(current) ? depth.get(current) + 1 : 0;
            for (int i = chain.size() - 1; i >= 0; i--) {
                depth.put(chain.get(i), base++);
            }
        }
        return depth;
    }

    private static String id(String column, Object value) {
        return value == null ? "null" : CanonicalKey.render(Map.of(column, value));
    }
}
