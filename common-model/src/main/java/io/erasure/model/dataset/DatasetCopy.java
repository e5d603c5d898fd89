package io.erasure.model.dataset;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A copy of a dataset's rows in another store (cache, search index, object copy, a store behind an
 * HTTP callback). Copies are deleted after their source, so a cache cannot be refilled from it.
 */
public record DatasetCopy(String name, StoreKind storeKind, String connectionRef, CopyTarget target) {

    /** Separates the source dataset's name from the copy's name in the copy's view name. */
    public static final String VIEW_SEPARATOR = "--";

    public DatasetCopy {
        Names.datasetName("copy.name", name);
        Require.nonNull("copy.storeKind (one of " + StoreKind.known() + ")", storeKind);
        Names.connectionRef("copy.connectionRef", connectionRef);
        Require.nonNull("copy.target (a keyTemplate, a table mapping or an httpCallback)", target);
        CopyTarget.requireFits("copy '" + name + "'", storeKind, target);
    }

    /** The dataset name a copy's deletion records carry: {@code <source>--<copy>}. */
    public String viewName(String sourceDataset) {
        return sourceDataset + VIEW_SEPARATOR + name;
    }

    /**
     * The copy seen as a dataset of its own store, so that its adapter is reached through the same
     * SPI as any dataset: its keys are the copy's key columns ({@link #keyOf}), its rows are deleted at
     * the source's cut-off, and its deletion records carry {@link #viewName}.
     */
    public DatasetSpec viewOf(DatasetSpec source) {
        DatasetSpec.Builder view = source.toBuilder()
                .name(viewName(source.name()))
                .storeKind(storeKind)
                .connectionRef(connectionRef)
                .copies(List.of());
        if (target instanceof CopyTarget.TableMapping mapping) {
            KeyColumns sourceKey = source.keyColumns();
            for (String column : sourceKey.primaryKey()) {
                if (!mapping.columns().containsKey(column)) {
                    throw new IllegalArgumentException("copy '" + name + "' must map every primary key column of '"
                            + source.name() + "'; add '" + column + "' to copy.columns");
                }
            }
            String identifier = mapping.columns()
                    .getOrDefault(
                            source.identifierColumn(),
                            mapping.columns().get(sourceKey.partition().get(0)));
            return view.namespace(mapping.namespace())
                    .table(mapping.table())
                    .keyColumns(KeyColumns.of(
                            mapped(mapping, sourceKey.partition()), mapped(mapping, sourceKey.clustering())))
                    .identifierColumn(identifier)
                    .conditionalColumn(
                            source.storeKind() == storeKind ? source.conditionalColumn() : ConditionalColumn.none())
                    .target(null)
                    .build();
        }
        List<String> columns = target.sourceColumns();
        String identifier = columns.contains(source.identifierColumn()) ? source.identifierColumn() : columns.get(0);
        return view.keyColumns(KeyColumns.of(columns, List.of()))
                .identifierColumn(identifier)
                .conditionalColumn(ConditionalColumn.none())
                .target(target)
                .build();
    }

    /**
     * The source columns a copy key is made of: the source's primary key for a table mapping (its
     * view is keyed by the mapped key columns), the template's or callback's columns otherwise.
     */
    public List<String> sourceColumns(DatasetSpec source) {
        return target instanceof CopyTarget.TableMapping ? source.keyColumns().primaryKey() : target.sourceColumns();
    }

    /**
     * The copy's key for a source row: the row's values of {@link #sourceColumns}, renamed for a table
     * mapping. Fails if the source row lacks one of them.
     */
    public Map<String, Object> keyOf(DatasetSpec source, Map<String, ?> sourceRow) {
        Map<String, Object> key = new LinkedHashMap<>();
        Map<String, String> rename = target instanceof CopyTarget.TableMapping mapping ? mapping.columns() : Map.of();
        for (String column : sourceColumns(source)) {
            Object value = sourceRow.get(column);
            if (value == null) {
                throw new IllegalArgumentException("copy '" + name + "' needs column '" + column
                        + "' of the source row, which has no value for it");
            }
            key.put(rename.getOrDefault(column, column), value);
        }
        return key;
    }

    private static List<String> mapped(CopyTarget.TableMapping mapping, List<String> columns) {
        List<String> out = new ArrayList<>();
        columns.forEach(c -> out.add(mapping.columns().get(c)));
        return out;
    }
}
