package io.erasure.store.http.request;

import io.erasure.store.http.HttpCallbackSettings;
import io.erasure.store.spi.StoreException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Header values written {@code secret:NAME} in a spec are references to the connection's {@code secret.NAME}
 * settings: the spec (and so the registry, plans, dry-run reports and deletion records) holds only the name, and the
 * value exists only in the deletion service's configuration and on the wire. Nothing here puts a value in a message.
 * A secret is bound to the owner teams operators name for it ({@code secret-teams.NAME}): a spec of any other team
 * that refers to it is refused, so one team cannot send another's token to an endpoint of its own.
 */
public final class SecretHeaders {

    public static final String REFERENCE_PREFIX = "secret:";

    private final HttpCallbackSettings settings;

    public SecretHeaders(HttpCallbackSettings settings) {
        this.settings = settings;
    }

    /**
     * The headers with every secret reference replaced by its value, for the wire only.
     *
     * @throws StoreException.Fatal naming the header, the secret and the setting to add, if a secret is unknown
     */
    public Map<String, String> resolve(Map<String, String> headers, String ownerTeam) {
        Map<String, String> resolved = new LinkedHashMap<>();
        headers.forEach((name, value) -> {
            String secret = secretName(value);
            resolved.put(name, secret == null ? value : valueOf(name, secret, ownerTeam));
        });
        return resolved;
    }

    /** Checks every reference resolves for a spec of {@code ownerTeam}, without keeping the values. */
    public void requireResolvable(Map<String, String> headers, String ownerTeam) {
        resolve(headers, ownerTeam);
    }

    /**
     * {@code text} (e.g. a response body the owner echoed a header into) with every secret value replaced by its
     * reference.
     */
    public String redact(String text) {
        String redacted = text;
        for (Map.Entry<String, String> secret : settings.secrets().entrySet()) {
            if (!secret.getValue().isEmpty()) {
                redacted = redacted.replace(secret.getValue(), REFERENCE_PREFIX + secret.getKey());
            }
        }
        return redacted;
    }

    /** The secret a header value refers to, or null if it is a plain value. */
    static String secretName(String value) {
        return value.startsWith(REFERENCE_PREFIX)
                ? value.substring(REFERENCE_PREFIX.length()).trim()
                : null;
    }

    private String valueOf(String header, String secret, String ownerTeam) {
        String value = settings.secrets().get(secret);
        if (value == null || value.isBlank()) {
            throw new StoreException.Fatal("header '" + header + "' refers to secret '" + secret
                    + "', which connection '"
                    + settings.ref() + "' does not define; operators add the setting " + settings.secretSetting(secret)
                    + " (from a secret store, not the dataset spec)");
        }
        Set<String> teams = settings.secretTeams().getOrDefault(secret, Set.of());
        if (ownerTeam == null || !teams.contains(ownerTeam)) {
            throw new StoreException.Fatal("header '" + header + "' refers to secret '" + secret + "' of connection '"
                    + settings.ref() + "', which team '" + ownerTeam + "' may not use ("
                    + (teams.isEmpty()
                            ? "no team may: operators bind it with " + settings.secretTeamsSetting(secret)
                            : "it is bound to " + teams + " by " + settings.secretTeamsSetting(secret))
                    + "); use a secret of your own team");
        }
        if (value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
            throw new StoreException.Fatal("secret '" + secret + "' of connection '" + settings.ref()
                    + "' (header '" + header + "') spans several lines; a header value must be one line: fix "
                    + settings.secretSetting(secret));
        }
        return value;
    }
}
