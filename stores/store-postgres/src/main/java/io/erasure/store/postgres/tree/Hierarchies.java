package io.erasure.store.postgres.tree;

import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The hierarchies of the datasets served through one connection, by dataset name. Datasets not listed are flat.
 *
 * <p>Configured with the connection's settings (the dataset spec has no place for them, and child tables are
 * not copies: copies are deleted after their source, children before or with it):
 * <pre>
 * hierarchy.&lt;dataset&gt;.tree.parent-column        = parent_id     (recursive mode)
 * hierarchy.&lt;dataset&gt;.tree.path-column          = path          (materialized-path mode)
 * hierarchy.&lt;dataset&gt;.tree.node-identifier      = own | inherited  (optional, default own: see {@link TreeShape})
 * hierarchy.&lt;dataset&gt;.child.&lt;name&gt;.table        = shop.order_items
 * hierarchy.&lt;dataset&gt;.child.&lt;name&gt;.references   = order_id=id   (child column=parent key column,
 *                                                                            comma separated)
 * hierarchy.&lt;dataset&gt;.child.&lt;name&gt;.updated-at   = updated_at    (optional)
 * </pre>
 */
public record Hierarchies(Map<String, Hierarchy> byDataset) {

    private static final String PREFIX = "hierarchy.";

    public Hierarchies {
        byDataset = Map.copyOf(byDataset);
    }

    public static Hierarchies none() {
        return new Hierarchies(Map.of());
    }

    public Hierarchy of(String dataset) {
        return byDataset.getOrDefault(dataset, Hierarchy.NONE);
    }

    /** Reads the {@code hierarchy.*} settings; a malformed one fails naming the setting and its expected form. */
    public static Hierarchies fromSettings(StoreConnection connection) {
        Map<String, Map<String, String>> perDataset = new TreeMap<>();
        connection.settings().forEach((name, value) -> {
            if (name.startsWith(PREFIX)) {
                String rest = name.substring(PREFIX.length());
                int dot = rest.indexOf('.');
                if (dot <= 0) {
                    throw invalid(connection, name, "hierarchy.<dataset>.tree.* or hierarchy.<dataset>.child.<name>.*");
                }
                perDataset
                        .computeIfAbsent(rest.substring(0, dot), d -> new TreeMap<>())
                        .put(rest.substring(dot + 1), value.trim());
            }
        });
        Map<String, Hierarchy> hierarchies = new LinkedHashMap<>();
        perDataset.forEach((dataset, settings) -> {
            try {
                hierarchies.put(dataset, parse(settings));
            } catch (IllegalArgumentException e) {
                throw new StoreException.Fatal("connection '" + connection.ref()
                        + "' has an invalid hierarchy for dataset '" + dataset + "': " + e.getMessage());
            }
        });
        return new Hierarchies(hierarchies);
    }

    private static Hierarchy parse(Map<String, String> settings) {
        Optional<String> parent = Optional.ofNullable(settings.get("tree.parent-column"));
        Optional<String> path = Optional.ofNullable(settings.get("tree.path-column"));
        String nodeIdentifier = settings.get("tree.node-identifier");
        if (nodeIdentifier != null && parent.isEmpty() && path.isEmpty()) {
            throw new IllegalArgumentException(
                    "tree.node-identifier needs a tree: set tree.parent-column or tree.path-column too");
        }
        Optional<TreeShape> tree = parent.isEmpty() && path.isEmpty()
                ? Optional.empty()
                : Optional.of(new TreeShape(parent, path, TreeShape.NodeIdentifier.fromSetting(nodeIdentifier)));
        List<ChildTable> children = new ArrayList<>();
        TreeSet<String> childNames = new TreeSet<>();
        for (String key : settings.keySet()) {
            if (key.startsWith("child.")) {
                String rest = key.substring("child.".length());
                int dot = rest.indexOf('.');
                if (dot <= 0) {
                    throw new IllegalArgumentException(
                            "setting '" + key + "' must be child.<name>.table|references|updated-at");
                }
                childNames.add(rest.substring(0, dot));
            } else if (!key.equals("tree.parent-column")
                    && !key.equals("tree.path-column")
                    && !key.equals("tree.node-identifier")) {
                throw new IllegalArgumentException(
                        "unknown setting '" + key + "'; use tree.parent-column, tree.path-column,"
                                + " tree.node-identifier or child.<name>.table|references|updated-at");
            }
        }
        for (String child : childNames) {
            String prefix = "child." + child + ".";
            String table = settings.get(prefix + "table");
            String references = settings.get(prefix + "references");
            if (table == null || !table.contains(".") || references == null) {
                throw new IllegalArgumentException("child '" + child + "' needs " + prefix + "table = schema.table and "
                        + prefix + "references = child_column=parent_key_column[,...]");
            }
            Map<String, String> columns = new LinkedHashMap<>();
            for (String pair : references.split(",")) {
                String[] sides = pair.split("=", -1);
                if (sides.length != 2) {
                    throw new IllegalArgumentException(prefix
                            + "references must be child_column=parent_key_column[,...], got '" + references + "'");
                }
                columns.put(sides[0].trim(), sides[1].trim());
            }
            int dot = table.indexOf('.');
            children.add(new ChildTable(
                    table.substring(0, dot).trim(),
                    table.substring(dot + 1).trim(),
                    columns,
                    Optional.ofNullable(settings.get(prefix + "updated-at"))));
        }
        return new Hierarchy(tree, children);
    }

    private static StoreException.Fatal invalid(StoreConnection connection, String setting, String expected) {
        return new StoreException.Fatal(
                "connection '" + connection.ref() + "' setting '" + setting + "' is not of the form " + expected);
    }
}
