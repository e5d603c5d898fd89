package io.erasure.store.spi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The connection settings one store type understands: exact names, and prefixes under which it reads a family of
 * names (e.g. {@code hierarchy.<dataset>.tree.*}). {@link StoreAdapters#open} refuses a connection with any other
 * setting before it opens it, naming the unknown one, the closest known name and every known one: a misspelt setting
 * ({@code consistancy: ALL}) would otherwise be ignored without a word and its default used, which for a deletion
 * platform can mean deleting at a weaker consistency than the operator asked for.
 */
public record SettingsSpec(SortedSet<String> names, SortedSet<String> prefixes) {

    /** How far (in edits) a setting may be from a known name for the refusal to suggest that name. */
    private static final int SUGGESTION_DISTANCE = 3;

    public SettingsSpec {
        names = new TreeSet<>(names);
        prefixes = new TreeSet<>(prefixes);
        for (String prefix : prefixes) {
            if (prefix.isEmpty() || !prefix.endsWith(".")) {
                throw new IllegalArgumentException("a settings prefix ends with '.', got '" + prefix + "'");
            }
        }
    }

    public static SettingsSpec of(String... names) {
        return new SettingsSpec(new TreeSet<>(List.of(names)), new TreeSet<>());
    }

    /** This spec, also accepting every name that starts with one of {@code more} (each ending with a dot). */
    public SettingsSpec withPrefixes(String... more) {
        SortedSet<String> all = new TreeSet<>(prefixes);
        all.addAll(List.of(more));
        return new SettingsSpec(names, all);
    }

    public boolean knows(String setting) {
        return names.contains(setting)
                || prefixes.stream().anyMatch(p -> setting.startsWith(p) && setting.length() > p.length());
    }

    /**
     * @throws StoreException.Fatal naming each setting of {@code connection} this spec does not know, with the
     *     closest known name where one is near and every known name
     */
    public void check(StoreConnection connection) {
        List<String> unknown = new ArrayList<>();
        for (String setting : new TreeSet<>(connection.settings().keySet())) {
            if (!knows(setting)) {
                unknown.add("'" + setting + "'"
                        + closest(setting)
                                .map(name -> " (did you mean '" + name + "'?)")
                                .orElse(""));
            }
        }
        if (!unknown.isEmpty()) {
            throw new StoreException.Fatal("connection '" + connection.ref() + "' has "
                    + (unknown.size() == 1 ? "a setting" : "settings") + " the " + connection.kind()
                    + " adapter does not know: " + String.join(", ", unknown) + ". Correct or remove "
                    + (unknown.size() == 1 ? "it" : "them") + " under "
                    + StoreConnection.property(connection.ref(), "*") + "; the known settings are " + known());
        }
    }

    private String known() {
        String exact = String.join(", ", names);
        return prefixes.isEmpty()
                ? exact
                : exact + ", and any name under "
                        + String.join(
                                " or ", prefixes.stream().map(p -> p + "*").toList());
    }

    private Optional<String> closest(String setting) {
        return names.stream()
                .filter(name -> distance(setting, name) <= SUGGESTION_DISTANCE)
                .min(Comparator.comparingInt((String name) -> distance(setting, name))
                        .thenComparing(name -> name));
    }

    /** The edit distance (insertions, deletions, substitutions) between two names. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
