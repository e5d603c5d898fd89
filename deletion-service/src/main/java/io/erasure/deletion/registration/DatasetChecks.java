package io.erasure.deletion.registration;

import io.erasure.model.dataset.DatasetCopy;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.StoreException;
import io.erasure.support.stores.StoreAdapterPool;
import io.erasure.support.stores.StoreConnectionsProperties;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Service;

/**
 * Checks a dataset spec, as it is about to be registered or changed, against the live stores it names: through the
 * same adapters that will delete from them, so what registration accepts is what deletion can serve. The dataset's
 * table (or target) and each copy's are checked by their adapter's {@code checkDataset}: the table exists, the key
 * and identifier columns exist with usable types, the guard column fits, and tables the adapter cannot delete from
 * safely (Cassandra counters, static columns) are refused. Every problem is reported, not only the first.
 *
 * <p>A retriable store error (the store is down) is a problem too: the control plane then refuses the registration
 * rather than store a spec nobody could check.
 */
@Service
public class DatasetChecks {

    /** One thing wrong with a spec: where ({@code dataset 'x'}, {@code copy 'cache'}) and what, with the fix. */
    public record Problem(String place, String problem) {}

    /** What a check found; empty {@code problems}: the spec fits the live stores. */
    public record Result(String dataset, List<Problem> problems) {}

    private final StoreAdapterPool stores;
    private final StoreConnectionsProperties connections;

    public DatasetChecks(StoreAdapterPool stores, StoreConnectionsProperties connections) {
        this.stores = stores;
        this.connections = connections;
    }

    public Result check(DatasetSpec spec) {
        List<Problem> problems = new ArrayList<>();
        check("dataset '" + spec.name() + "'", spec, problems);
        for (DatasetCopy copy : spec.copies()) {
            String place = "copy '" + copy.name() + "'";
            DatasetSpec view;
            try {
                view = copy.viewOf(spec);
            } catch (IllegalArgumentException e) {
                problems.add(new Problem(place, e.getMessage()));
                continue;
            }
            check(place, view, problems);
        }
        return new Result(spec.name(), List.copyOf(problems));
    }

    private void check(String place, DatasetSpec spec, List<Problem> problems) {
        StoreConnectionsProperties.Connection connection =
                connections.connections().get(spec.connectionRef());
        if (connection == null || connection.kind() == null) {
            problems.add(new Problem(
                    place,
                    "connection '" + spec.connectionRef() + "' is not configured in the deletion"
                            + " service (known: " + connections.connections().keySet()
                            + "): name one of them, or an operator"
                            + " adds erasure.connections." + spec.connectionRef() + " to every service"));
            return;
        }
        StoreKind kind = connection.kind();
        if (kind != spec.storeKind()) {
            problems.add(new Problem(
                    place,
                    "storeKind is " + spec.storeKind() + " but connection '"
                            + spec.connectionRef() + "' is a " + kind + " store: set storeKind to " + kind
                            + " or name a " + spec.storeKind() + " connection"));
            return;
        }
        try {
            stores.adapter(spec.connectionRef()).checkDataset(spec);
        } catch (StoreException.Retriable e) {
            problems.add(new Problem(
                    place,
                    "connection '" + spec.connectionRef() + "' could not be reached to check it (" + e.getMessage()
                            + "); register again once the store answers"));
        } catch (StoreException.Fatal | IllegalArgumentException e) {
            problems.add(new Problem(place, e.getMessage()));
        }
    }
}
