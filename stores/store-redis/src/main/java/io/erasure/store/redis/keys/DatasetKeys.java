package io.erasure.store.redis.keys;

import io.erasure.model.dataset.CopyTarget;
import io.erasure.model.dataset.DatasetSpec;
import io.erasure.model.dataset.StoreKind;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Redis keys of one dataset: its key template, checked once, rendered for each key. Keys are always point keys:
 * a rendered key is used as it is (a {@code *} or {@code ?} in it is just a character), and nothing is ever found by
 * {@code SCAN}, {@code KEYS} or a pattern.
 */
public final class DatasetKeys {

    private final DatasetSpec spec;
    private final CopyTarget.KeyTemplate template;

    private DatasetKeys(DatasetSpec spec, CopyTarget.KeyTemplate template) {
        this.spec = spec;
        this.template = template;
    }

    /**
     * The keys of {@code spec}, if this adapter may serve it: a REDIS dataset whose target is a key template (not a
     * prefix) made of exactly its key columns, and, when {@code allowedPrefixes} is not empty, whose literal start
     * begins with one of them.
     *
     * @throws StoreException.Fatal with the reason and the fix otherwise
     */
    public static DatasetKeys check(DatasetSpec spec, List<String> allowedPrefixes, String connectionRef) {
        String dataset = "dataset '" + spec.name() + "'";
        if (spec.storeKind() != StoreKind.REDIS) {
            throw new StoreException.Fatal(
                    dataset + " is a " + spec.storeKind() + " dataset; the Redis adapter serves only"
                            + " REDIS datasets: check its storeKind and connectionRef");
        }
        if (!(spec.target() instanceof CopyTarget.KeyTemplate keyTemplate)) {
            throw new StoreException.Fatal(dataset
                    + " needs a key template target such as 'profile:{customer_id}', got "
                    + (spec.target() == null ? "none" : spec.target().getClass().getSimpleName()));
        }
        String text = keyTemplate.template();
        if (keyTemplate.isPrefix()) {
            throw new StoreException.Fatal(
                    dataset + " has key template '" + text + "', a prefix (it ends with '/'): Redis"
                            + " keys are deleted one by one, never by prefix or pattern; give the whole key,"
                            + " e.g. 'profile:{customer_id}'");
        }
        if (!Set.copyOf(keyTemplate.placeholders())
                .equals(Set.copyOf(spec.keyColumns().primaryKey()))) {
            throw new StoreException.Fatal(dataset + " has key template '" + text + "' with placeholders "
                    + keyTemplate.sourceColumns() + " but key columns "
                    + spec.keyColumns().primaryKey()
                    + "; the template must use every key column and nothing else, so each key names one Redis key");
        }
        String literal = literalPrefix(text);
        if (!allowedPrefixes.isEmpty() && allowedPrefixes.stream().noneMatch(literal::startsWith)) {
            throw new StoreException.Fatal(dataset + " has key template '" + text + "', outside the key prefixes that"
                    + " connection '" + connectionRef + "' may delete from " + allowedPrefixes
                    + "; register the copy under"
                    + " one of them, or have the operators add its prefix to "
                    + StoreConnection.property(connectionRef, "key-prefixes"));
        }
        return new DatasetKeys(spec, keyTemplate);
    }

    /** The template's text up to its first placeholder: every key of the dataset starts with it. */
    public static String literalPrefix(String template) {
        int brace = template.indexOf('{');
        return brace < 0 ? template : template.substring(0, brace);
    }

    public DatasetSpec spec() {
        return spec;
    }

    public String template() {
        return template.template();
    }

    /** The Redis key of one full key. */
    public String keyOf(Map<String, Object> key) {
        return template.render(key);
    }

    /**
     * The Redis keys of {@code keys}, in order. Two keys rendering to one Redis key (a template such as
     * {@code {a}{b}} without a separator) are refused: deleting or restoring one would touch the other.
     */
    public List<String> keysOf(List<Map<String, Object>> keys) {
        List<String> rendered = new ArrayList<>(keys.size());
        Map<String, Map<String, Object>> seen = new HashMap<>();
        for (Map<String, Object> key : keys) {
            String redisKey = keyOf(key);
            Map<String, Object> other = seen.putIfAbsent(redisKey, key);
            if (other != null) {
                throw new IllegalArgumentException("keys " + other + " and " + key + " of dataset '" + spec.name()
                        + "' both render to Redis key '" + redisKey + "' with template '" + template()
                        + "'; put a separator between its placeholders");
            }
            rendered.add(redisKey);
        }
        return rendered;
    }
}
