package io.erasure.store.http.target;

import io.erasure.store.http.HttpCallbackSettings;
import io.erasure.store.spi.StoreConnection;
import io.erasure.store.spi.StoreException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where callbacks may go, as operators decided it: the URL's host must match the connection's
 * {@code allowed-hosts}, and <em>every</em> address the host resolves to must be public ({@link NonPublicRanges}),
 * unless operators allow it: a range listed in {@code allowed-addresses}, or any address with
 * {@code allow-private-addresses}. An owner could otherwise point the platform at internal services or at the cloud
 * metadata endpoint (169.254.169.254) and have it send requests, with credentials, on its behalf.
 *
 * <p>The check runs at registration ({@link #check}) and at call time, where it is the HTTP client's only way to
 * resolve a host ({@link #reachableAddresses}, through {@code CheckedDnsResolver}): each connection resolves the host
 * once, and connects only to the addresses that lookup returned and this policy checked, so a DNS answer that changes
 * between the check and the connect (DNS rebinding) cannot redirect a request. Redirects are never followed (see
 * {@code CallbackClient}), so a checked URL cannot lead elsewhere.
 */
public final class TargetPolicy {

    private final String ref;
    private final List<String> allowedHosts;
    private final boolean allowPrivateAddresses;
    private final List<AddressRange> allowedAddresses;
    private final HostResolver resolver;

    public TargetPolicy(HttpCallbackSettings settings, HostResolver resolver) {
        this.ref = settings.ref();
        this.allowedHosts = settings.allowedHosts();
        this.allowPrivateAddresses = settings.allowPrivateAddresses();
        this.allowedAddresses = settings.allowedAddresses();
        this.resolver = resolver;
    }

    /**
     * The URL, once its host is allowed and resolves only to allowed addresses (not looked up when
     * {@code allow-private-addresses} is set). Registration's check; a call checks again as it connects.
     *
     * @param field the spec field the URL comes from, for the message
     * @throws StoreException.Fatal     if the URL is malformed, its host is not on the allow-list, or it resolves
     *                                  to an address that is not allowed; the message names the URL and the fix
     * @throws StoreException.Retriable if the host cannot be resolved right now
     */
    public URI check(String field, String url) {
        URI uri = allowedUri(field, url);
        if (allowPrivateAddresses) {
            return uri;
        }
        try {
            reachableAddresses(uri.getHost());
        } catch (UnknownHostException e) {
            throw new StoreException.Retriable(
                    field + " " + url + ": host '" + uri.getHost() + "' cannot be resolved;"
                            + " check the host name, or retry if DNS is failing",
                    e);
        } catch (StoreException.Fatal refused) {
            throw new StoreException.Fatal(field + " " + url + " is refused: " + refused.getMessage(), refused);
        }
        return uri;
    }

    /**
     * The URL if it is an absolute http(s) URL whose host is on the allow-list; nothing is looked up.
     *
     * @throws StoreException.Fatal if it is not; the message names the URL and the fix
     */
    public URI allowedUri(String field, String url) {
        URI uri = parse(field, url);
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        if (!isAllowedHost(host)) {
            throw new StoreException.Fatal(field + " " + url + " is refused: host '" + host + "' is not on connection '"
                    + ref + "''s allowed-hosts " + allowedHosts + "; operators add it to "
                    + StoreConnection.property(ref, "allowed-hosts") + " (a host name or a '*.suffix' pattern)");
        }
        return uri;
    }

    /**
     * Resolves {@code host} once and returns every address it has, each of them checked: the only addresses a
     * connection to {@code host} may use. With {@code allow-private-addresses} they are returned unchecked.
     *
     * @throws StoreException.Fatal if any address is not allowed; the message names the host, the address, the range
     *                              it is in, and the settings that would allow it
     * @throws UnknownHostException if the host has no address right now
     */
    public List<InetAddress> reachableAddresses(String host) throws UnknownHostException {
        String name = stripBrackets(host.toLowerCase(Locale.ROOT));
        List<InetAddress> addresses = resolver.resolve(name);
        if (addresses == null || addresses.isEmpty()) {
            throw new UnknownHostException(name + ": no address");
        }
        if (!allowPrivateAddresses) {
            for (InetAddress address : addresses) {
                Optional<Refusal> refusal = refusal(address, allowedAddresses);
                if (refusal.isPresent()) {
                    throw new StoreException.Fatal(refusal.get().explain(name, address, ref));
                }
            }
        }
        return List.copyOf(addresses);
    }

    /** True if {@code host} (lower case) equals an allowed host or is a subdomain of a {@code *.suffix} pattern. */
    public boolean isAllowedHost(String host) {
        for (String pattern : allowedHosts) {
            if (pattern.startsWith("*.") ? host.endsWith(pattern.substring(1)) : host.equals(pattern)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The non-public range {@code address} is in, as {@code "in <cidr> (<purpose>)"}, or empty if it is public. An
     * address that carries an IPv4 destination ({@code ::ffff:a.b.c.d}, NAT64, 6to4, {@code ::a.b.c.d}) is judged on
     * both: the IPv6 range and the IPv4 address. Operators' allowances are not taken into account.
     */
    public static Optional<String> forbiddenKind(InetAddress address) {
        return refusal(address, List.of()).map(Refusal::where);
    }

    private static Optional<Refusal> refusal(InetAddress address, List<AddressRange> allowed) {
        // ::ffff:a.b.c.d is the IPv4 address itself; the other forms are IPv6 destinations that carry one
        if (!NonPublicRanges.isIpv4Mapped(address)) {
            Optional<Refusal> outer = judge(address, false, allowed);
            if (outer.isPresent()) {
                return outer;
            }
        }
        return NonPublicRanges.embeddedIpv4(address).flatMap(embedded -> judge(embedded, true, allowed));
    }

    private static Optional<Refusal> judge(InetAddress address, boolean embedded, List<AddressRange> allowed) {
        if (allowed.stream().anyMatch(range -> range.contains(address))) {
            return Optional.empty();
        }
        return NonPublicRanges.rangeOf(address).map(range -> new Refusal(address, embedded, range));
    }

    /** Why an address is refused: it, or the IPv4 address it carries ({@code embedded}), is in {@code range}. */
    private record Refusal(InetAddress judged, boolean embedded, AddressRange range) {

        String where() {
            return (embedded ? "carrying the IPv4 address " + judged.getHostAddress() + ", " : "") + "in "
                    + range.describe();
        }

        String explain(String host, InetAddress address, String ref) {
            String single = judged.getHostAddress() + (judged instanceof Inet4Address ? "/32" : "/128");
            return "host '" + host + "' resolves to " + address.getHostAddress() + ", " + where() + ". Callbacks may"
                    + " only reach public addresses: give a public URL, or, if this internal target is intended,"
                    + " operators add " + range.cidr() + " (or " + single + " alone) to "
                    + StoreConnection.property(ref, "allowed-addresses") + ", or set "
                    + StoreConnection.property(ref, "allow-private-addresses") + "=true to allow every address";
        }
    }

    private static URI parse(String field, String url) {
        try {
            URI uri = new URI(url);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                    && uri.getHost() != null
                    && uri.getUserInfo() == null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // answered below, with the expected form
        }
        throw new StoreException.Fatal(
                field + " must be an absolute http(s) URL without credentials, got '" + url + "'");
    }

    private static String stripBrackets(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
