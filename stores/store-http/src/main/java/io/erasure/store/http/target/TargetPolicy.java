package io.erasure.store.http.target;

import io.erasure.store.spi.StoreException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where callbacks may go, as operators decided it: the URL's host must match the connection's
 * {@code allowed-hosts}, and unless {@code allow-private-addresses} is set, <em>every</em> address the host
 * resolves to must be public. An owner could otherwise point the platform at internal services or at the cloud
 * metadata endpoint (169.254.169.254) and have it send requests, with credentials, on its behalf.
 *
 * <p>The check runs at registration ({@code checkDataset}) and again before every attempt of every call, so a
 * host whose DNS answer changes to a private address afterwards (DNS rebinding) is refused at call time. The JDK
 * HTTP client resolves the host once more when it connects; both lookups go through the JVM's address cache
 * ({@code networkaddress.cache.ttl}, 30 s by default), so they see the same answer unless the cached entry
 * expires in between. Redirects are never followed (see {@code CallbackClient}), so a checked URL cannot lead
 * elsewhere.
 */
public final class TargetPolicy {

    private final String ref;
    private final List<String> allowedHosts;
    private final boolean allowPrivateAddresses;
    private final HostResolver resolver;

    public TargetPolicy(String ref, List<String> allowedHosts, boolean allowPrivateAddresses, HostResolver resolver) {
        this.ref = ref;
        this.allowedHosts = List.copyOf(allowedHosts);
        this.allowPrivateAddresses = allowPrivateAddresses;
        this.resolver = resolver;
    }

    /**
     * The URL, once its host is allowed and resolves only to allowed addresses.
     *
     * @param field the spec field the URL comes from, for the message
     * @throws StoreException.Fatal     if the URL is malformed, its host is not on the allow-list, or it resolves
     *                                  to an address that is not allowed; the message names the URL and the fix
     * @throws StoreException.Retriable if the host cannot be resolved right now
     */
    public URI check(String field, String url) {
        URI uri = parse(field, url);
        String host = uri.getHost().toLowerCase(Locale.ROOT);
        if (!isAllowedHost(host)) {
            throw new StoreException.Fatal(field + " " + url + " is refused: host '" + host + "' is not on connection '"
                    + ref + "''s allowed-hosts " + allowedHosts + "; operators add it to erasure.connections." + ref
                    + ".allowed-hosts (a host name or a '*.suffix' pattern)");
        }
        if (allowPrivateAddresses) {
            return uri;
        }
        List<InetAddress> addresses;
        try {
            addresses = resolver.resolve(stripBrackets(host));
        } catch (UnknownHostException e) {
            throw new StoreException.Retriable(field + " " + url + ": host '" + host + "' cannot be resolved; check the"
                    + " host name, or retry if DNS is failing", e);
        }
        for (InetAddress address : addresses) {
            Optional<String> kind = forbiddenKind(address);
            if (kind.isPresent()) {
                throw new StoreException.Fatal(field + " " + url + " is refused: host '" + host + "' resolves to "
                        + address.getHostAddress() + ", a " + kind.get() + " address. Callbacks may only reach public"
                        + " addresses; give a public URL, or operators set erasure.connections." + ref
                        + ".allow-private-addresses=true if this internal target is intended");
            }
        }
        return uri;
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
     * What kind of non-public address {@code address} is, or empty if it is public: loopback, private
     * (10/8, 172.16/12, 192.168/16, fc00::/7), link-local (169.254/16 with the cloud metadata address,
     * fe80::/10), unspecified (0.0.0.0/8, ::) or multicast. IPv4 addresses embedded in IPv6 ones
     * (::ffff:a.b.c.d, ::a.b.c.d) are judged as the IPv4 address.
     */
    public static Optional<String> forbiddenKind(InetAddress address) {
        InetAddress judged = embeddedIpv4(address).orElse(address);
        byte[] bytes = judged.getAddress();
        if (judged.isLoopbackAddress()) {
            return Optional.of("loopback");
        }
        if (judged.isLinkLocalAddress()) {
            return Optional.of("link-local (this includes the cloud metadata endpoint 169.254.169.254)");
        }
        if (judged.isAnyLocalAddress() || judged instanceof Inet4Address && bytes[0] == 0) {
            return Optional.of("unspecified");
        }
        if (judged.isSiteLocalAddress() || judged instanceof Inet6Address && (bytes[0] & 0xfe) == 0xfc) {
            return Optional.of("private");
        }
        if (judged.isMulticastAddress()) {
            return Optional.of("multicast");
        }
        return Optional.empty();
    }

    private static Optional<InetAddress> embeddedIpv4(InetAddress address) {
        if (!(address instanceof Inet6Address)) {
            return Optional.empty();
        }
        byte[] bytes = address.getAddress();
        for (int i = 0; i < 10; i++) {
            if (bytes[i] != 0) {
                return Optional.empty();
            }
        }
        boolean mapped = bytes[10] == (byte) 0xff && bytes[11] == (byte) 0xff;
        boolean compatible = bytes[10] == 0 && bytes[11] == 0 && (bytes[12] | bytes[13] | bytes[14]) != 0;
        if (!mapped && !compatible) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByAddress(Arrays.copyOfRange(bytes, 12, 16)));
        } catch (UnknownHostException e) {
            throw new IllegalStateException("4 bytes are always an IPv4 address", e);
        }
    }

    private static URI parse(String field, String url) {
        try {
            URI uri = new URI(url);
            if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null
                    && uri.getUserInfo() == null) {
                return uri;
            }
        } catch (URISyntaxException e) {
            // answered below, with the expected form
        }
        throw new StoreException.Fatal(field + " must be an absolute http(s) URL without credentials, got '" + url + "'");
    }

    private static String stripBrackets(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
