package io.erasure.support.access;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.Profiles;
import org.springframework.core.env.PropertySource;

/**
 * Refuses to start a service outside the {@code local} profile while it would run with the demo's credentials: the
 * demo users, plain-text ({@code {noop}}) passwords, no way to authenticate at all, or one of the local-only keys
 * that ship in every jar's {@code application-local.yml}. A plain {@code java -jar} used to run with
 * {@code operator/operator} and a master key anyone can read in the source; now it stops before any bean is built,
 * naming each property to set. {@code ./erasure-local} and the tests activate {@code local}.
 *
 * <p>Runs after the config files are loaded (so profiles and every property source count), before the context.
 */
public class LocalOnly implements EnvironmentPostProcessor, Ordered {

    /** The profile of the demo: local users and local-only keys. */
    public static final String PROFILE = "local";

    /** The local-only values shipped in application-local.yml, by property, with the variable that replaces each. */
    static final Map<String, Secret> SECRETS = Map.of(
            "erasure.deletion-log.master-key",
                    new Secret(
                            "bG9jYWwtb25seS1kZWxldGlvbi1sb2ctbWFzdGVyLWs=",
                            "ERASURE_DELETIONLOG_MASTERKEY",
                            "openssl rand -base64 32"),
            "erasure.receipts.signing-key",
                    new Secret(
                            "local-only-receipt-signing-key-0123456789abcdef",
                            "ERASURE_RECEIPTS_SIGNINGKEY",
                            "openssl rand -hex 32"),
            "erasure.registry.live-check.password",
                    new Secret(
                            "registry",
                            "ERASURE_REGISTRY_LIVECHECK_PASSWORD",
                            "the deletion service's REGISTRY user's password"));

    record Secret(String localValue, String variable, String howToMake) {}

    /**
     * The Ed25519 key pairs of the local profile (private and public halves, base64 DER): published with the source, so
     * trusting or signing with one under any key id would let anyone forge tasks, lift kill switches or seal run events
     * (a validation under the limit, a later cut-off).
     */
    static final Set<String> PUBLISHED_SIGNING_KEYS = Set.of(
            "MC4CAQAwBQYDK2VwBCIEIFP9YJnCLRIGnHdmcZEWO06/uijq2IzHGEgltoendJem",
            "MC4CAQAwBQYDK2VwBCIEIA9XFmeJqe3S4bqKJBbRJ2YcW+jffB2SautBhvlOxL0C",
            "MC4CAQAwBQYDK2VwBCIEICVvRH+y6WJYG+IpS4e55wxhNHAZdM/H1bHQvtDs5oK4",
            "MCowBQYDK2VwAyEAsWOAPnH82V2jzG5TuiHw8fXB9vlmYSp/EnWP/rP3LlM=",
            "MCowBQYDK2VwAyEASDd2Mgo3/hMQg1TrU5E92IbO8CwWhWaAcBcShtFSj0Q=",
            "MCowBQYDK2VwAyEA2yxpDxQDZltp9/7SbgRz38YaTimT9wAZ4PgbEsS0EIg=",
            // audit-local and validation-local: the seals of audit and validation results on erasure.run.events
            "MC4CAQAwBQYDK2VwBCIEIKjzIel+FXKkm+1gE0XvcqhznICc55fP7rSK5NxLL4UH",
            "MCowBQYDK2VwAyEAWXYEHR5eIYyy1fQRCz4kFZ2qpA7F4UAv5305kZ4QT+E=",
            "MC4CAQAwBQYDK2VwBCIEIOiA1ULBdJSHHmI8Lsv/iI/a80S+hD9AHhOE1HT5tyx8",
            "MCowBQYDK2VwAyEAvTt3zuKHccemqeqo0lyYmqneRWch7MTfpeAs6LR4t6k=");

    private static final Set<ByteBuffer> PUBLISHED_KEY_BYTES = PUBLISHED_SIGNING_KEYS.stream()
            .map(key -> ByteBuffer.wrap(Base64.getDecoder().decode(key)))
            .collect(Collectors.toUnmodifiableSet());

    /** True if {@code value} decodes (as the key readers decode it, padding optional) to a published key half. */
    static boolean publishedKey(String value) {
        String compact = value.replaceAll("\\s", "");
        if (compact.length() < 40 || compact.length() > 80) {
            return false; // an Ed25519 half in DER is 44 (public) or 48 (private) base64 characters
        }
        try {
            return PUBLISHED_KEY_BYTES.contains(
                    ByteBuffer.wrap(Base64.getDecoder().decode(compact)));
        } catch (IllegalArgumentException notBase64) {
            return false;
        }
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (environment.acceptsProfiles(Profiles.of(PROFILE))) {
            return;
        }
        List<String> problems = problems(environment);
        if (!problems.isEmpty()) {
            throw new IllegalStateException("refusing to start with the demo's credentials outside the '" + PROFILE
                    + "' profile (./erasure-local and the tests activate it with spring.profiles.active=local): "
                    + String.join("; ", problems));
        }
    }

    static List<String> problems(ConfigurableEnvironment environment) {
        List<String> problems = new ArrayList<>();
        int users = 0;
        for (int i = 0; environment.getProperty("erasure.access.users[" + i + "].name") != null; i++) {
            users++;
            String password = environment.getProperty("erasure.access.users[" + i + "].password", "");
            if (password.startsWith("{noop}")) {
                problems.add("erasure.access.users[" + i + "] ('"
                        + environment.getProperty("erasure.access.users[" + i + "].name")
                        + "') has a plain-text {noop} password: give it a {bcrypt} hash (htpasswd -nbBC 12"
                        + " user secret) from a secret store");
            }
        }
        boolean jwt = environment.getProperty("spring.security.oauth2.resourceserver.jwt.issuer-uri") != null
                || environment.getProperty("spring.security.oauth2.resourceserver.jwt.jwk-set-uri") != null;
        if (users == 0 && !jwt) {
            problems.add("no caller could authenticate: set erasure.access.users (name, {bcrypt} password, roles, team)"
                    + " or spring.security.oauth2.resourceserver.jwt.issuer-uri");
        }
        if ("true"
                .equalsIgnoreCase(environment
                        .getProperty("erasure.signing.local-keys", "")
                        .trim())) {
            problems.add("erasure.signing.local-keys is true: tasks, kill switches and run events would be signed and"
                    + " trusted with key pairs published with the source; set erasure.signing.key-id, .private-key and"
                    + " .trusted-keys (docs/design.md, \"Trusted tasks\") and leave local-keys false");
        }
        // by the key's bytes, whatever property (or environment variable: ERASURE_SIGNING_PRIVATEKEY, ...), key id or
        // spelling of its base64 (padding, line breaks) an operator pasted it under
        for (PropertySource<?> source : environment.getPropertySources()) {
            if (source instanceof EnumerablePropertySource<?> names) {
                for (String name : names.getPropertyNames()) {
                    // as each source holds it (config files wrap values with their origin), placeholders unresolved
                    Object value = source.getProperty(name);
                    if (value != null && publishedKey(value.toString())) {
                        problems.add(name + " is a key pair half published with the source (the local profile's): make"
                                + " a key of your own (openssl genpkey -algorithm ed25519) from a secret store");
                    }
                }
            }
        }
        SECRETS.forEach((property, secret) -> {
            String value = environment.getProperty(property);
            if (value != null && value.trim().equals(secret.localValue())) {
                problems.add(property + " is the local-only value published with the source: set " + secret.variable()
                        + " (" + secret.howToMake() + ") from a secret store");
            }
        });
        return problems;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
