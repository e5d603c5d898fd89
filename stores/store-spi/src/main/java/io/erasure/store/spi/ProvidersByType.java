package io.erasure.store.spi;

import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.function.Function;

/** The implementations of one service interface on a class path, keyed by the store type each claims. */
final class ProvidersByType {

    private ProvidersByType() {}

    /**
     * @throws IllegalStateException naming both classes if two implementations claim one type: which one a service
     *                               used would depend on the order of its class path
     */
    static <P> Map<String, P> load(Class<P> service, ClassLoader loader, Function<P, String> type, String what) {
        Map<String, P> found = new TreeMap<>();
        for (P provider : ServiceLoader.load(service, loader)) {
            P previous = found.put(type.apply(provider), provider);
            if (previous != null) {
                throw new IllegalStateException("two " + what + " claim type " + type.apply(provider) + ": "
                        + previous.getClass().getName() + " and "
                        + provider.getClass().getName());
            }
        }
        return found;
    }
}
