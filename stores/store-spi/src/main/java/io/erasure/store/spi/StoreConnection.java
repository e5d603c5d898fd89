package io.erasure.store.spi;

import io.erasure.model.check.Names;
import io.erasure.model.dataset.StoreKind;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The settings behind a dataset's connection reference, resolved by the service that opens the
 * adapter (from its configuration, never from the dataset spec): e.g. {@code contact-points},
 * {@code local-datacenter}, {@code consistency} for Cassandra; {@code url}, {@code username},
 * {@code password} for PostgreSQL.
 */
public record StoreConnection(String ref, StoreKind kind, Map<String, String> settings) {

    public StoreConnection {
        Names.connectionRef("connection.ref", ref);
        if (kind == null) {
            throw new IllegalArgumentException("connection.kind is required; use one of " + StoreKind.known());
        }
        settings = settings == null ? Map.of() : Map.copyOf(settings);
    }

    public Optional<String> setting(String name) {
        return Optional.ofNullable(settings.get(name)).filter(v -> !v.isBlank());
    }

    public String required(String name) {
        return setting(name)
                .orElseThrow(() -> new StoreException.Fatal(
                        "connection '" + ref + "' has no setting '" + name + "'; configure " + property(ref, name)));
    }

    /**
     * Where an operator sets {@code name} for connection {@code ref}: {@code erasure.connections.<ref>.settings.<name>}
     * (every message that asks for a setting names it this way).
     */
    public static String property(String ref, String name) {
        return "erasure.connections." + ref + ".settings." + name;
    }

    /** {@code true} or {@code false} (any case), or {@code defaultValue} when unset; anything else is refused. */
    public boolean booleanSetting(String name, boolean defaultValue) {
        return setting(name)
                .map(value -> switch (value.trim().toLowerCase(Locale.ROOT)) {
                    case "true" -> true;
                    case "false" -> false;
                    default ->
                        throw new StoreException.Fatal("connection '" + ref + "' setting '" + name
                                + "' must be true or false, got '" + value + "'");
                })
                .orElse(defaultValue);
    }

    public int intSetting(String name, int defaultValue) {
        return setting(name)
                .map(value -> {
                    try {
                        return Integer.parseInt(value.trim());
                    } catch (NumberFormatException e) {
                        throw new StoreException.Fatal("connection '" + ref + "' setting '" + name
                                + "' must be an integer, got '" + value + "'");
                    }
                })
                .orElse(defaultValue);
    }
}
