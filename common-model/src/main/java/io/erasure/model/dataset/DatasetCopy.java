package io.erasure.model.dataset;

import io.erasure.model.check.Names;
import io.erasure.model.check.Require;

/**
 * A copy of a dataset's rows in another store (cache, search index, object copy). Copies are
 * deleted after their source, so a cache cannot be refilled from it.
 */
public record DatasetCopy(String name, StoreKind storeKind, String connectionRef, CopyTarget target) {

    public DatasetCopy {
        Names.datasetName("copy.name", name);
        Require.nonNull("copy.storeKind (one of " + StoreKind.known() + ")", storeKind);
        Names.connectionRef("copy.connectionRef", connectionRef);
        Require.nonNull("copy.target (a keyTemplate or a table mapping)", target);
        if (storeKind.tabular() && !(target instanceof CopyTarget.TableMapping)) {
            throw new IllegalArgumentException("copy '" + name + "' is in " + storeKind
                    + ": give copy.target as a table mapping (namespace, table, columns), not a key template");
        }
        if (!storeKind.tabular() && !(target instanceof CopyTarget.KeyTemplate)) {
            throw new IllegalArgumentException("copy '" + name + "' is in " + storeKind
                    + ": give copy.target as a key template such as 'profile:{customer_id}', not a table mapping");
        }
    }
}
