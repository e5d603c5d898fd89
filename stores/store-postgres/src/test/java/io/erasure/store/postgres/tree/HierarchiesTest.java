package io.erasure.store.postgres.tree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class HierarchiesTest {

    @Test
    void readsTreesAndChildTablesFromTheConnectionSettings() {
        Hierarchies hierarchies = Hierarchies.fromSettings(connection(Map.of(
                "url", "jdbc:postgresql://db/app",
                "hierarchy.orders.child.items.table", "shop.order_items",
                "hierarchy.orders.child.items.references", "order_id=id, tenant=tenant_id",
                "hierarchy.orders.child.items.updated-at", "updated_at",
                "hierarchy.folders.tree.parent-column", "parent_id",
                "hierarchy.paths.tree.path-column", "path")));

        Hierarchy orders = hierarchies.of("orders");
        assertThat(orders.tree()).isEmpty();
        assertThat(orders.children())
                .containsExactly(new ChildTable(
                        "shop",
                        "order_items",
                        Map.of("order_id", "id", "tenant", "tenant_id"),
                        Optional.of("updated_at")));
        assertThat(hierarchies.of("folders").tree()).contains(TreeShape.recursive("parent_id"));
        assertThat(hierarchies.of("folders").tree().orElseThrow().nodeIdentifier())
                .as("by default each node belongs to its own identifier")
                .isEqualTo(TreeShape.NodeIdentifier.OWN);
        assertThat(hierarchies.of("paths").tree().orElseThrow().mode()).isEqualTo(TreeShape.Mode.MATERIALIZED_PATH);
        assertThat(hierarchies.of("customers").isFlat()).isTrue();
    }

    @Test
    void nodesWithoutAnIdentifierOfTheirOwnAreDeclaredAndAnythingElseIsRefused() {
        Hierarchies hierarchies = Hierarchies.fromSettings(connection(Map.of(
                "hierarchy.categories.tree.parent-column", "parent_id",
                "hierarchy.categories.tree.node-identifier", "inherited")));
        assertThat(hierarchies.of("categories").tree().orElseThrow().nodeIdentifier())
                .isEqualTo(TreeShape.NodeIdentifier.INHERITED);

        assertThatThrownBy(() -> Hierarchies.fromSettings(connection(Map.of(
                        "hierarchy.categories.tree.parent-column",
                        "parent_id",
                        "hierarchy.categories.tree.node-identifier",
                        "parent"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("dataset 'categories'")
                .hasMessageContaining("tree.node-identifier must be 'own'")
                .hasMessageContaining("or 'inherited'")
                .hasMessageContaining("got 'parent'");
        assertThatThrownBy(() ->
                        Hierarchies.fromSettings(connection(Map.of("hierarchy.orders.tree.node-identifier", "own"))))
                .hasMessageContaining("tree.node-identifier needs a tree");
    }

    @Test
    void aMalformedHierarchyNamesTheSettingAndTheForm() {
        assertThatThrownBy(() -> Hierarchies.fromSettings(connection(Map.of(
                        "hierarchy.orders.child.items.table",
                        "order_items",
                        "hierarchy.orders.child.items.references",
                        "order_id=id"))))
                .isInstanceOf(StoreException.Fatal.class)
                .hasMessageContaining("dataset 'orders'")
                .hasMessageContaining("child.items.table = schema.table");
        assertThatThrownBy(() -> Hierarchies.fromSettings(connection(Map.of("hierarchy.orders.tree.parent", "x"))))
                .hasMessageContaining("unknown setting 'tree.parent'");
        assertThatThrownBy(() -> Hierarchies.fromSettings(
                        connection(Map.of("hierarchy.orders.tree.parent-column", "Parent; --"))))
                .hasMessageContaining("tree.parent-column must be a lower-case identifier");
        assertThatThrownBy(() -> Hierarchies.fromSettings(connection(Map.of(
                        "hierarchy.orders.child.items.table",
                        "shop.items",
                        "hierarchy.orders.child.items.references",
                        "order_id"))))
                .hasMessageContaining("references must be child_column=parent_key_column");
    }

    private static StoreConnection connection(Map<String, String> settings) {
        return new StoreConnection("pg-main", StoreKind.POSTGRES, settings);
    }
}
