package io.erasure.store.http.call;

import io.erasure.store.http.target.TargetPolicy;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.apache.hc.client5.http.DnsResolver;

/**
 * The HTTP client's only DNS: every new connection resolves its host here, once, through {@link TargetPolicy},
 * which checks every address the lookup returned, and the client connects to those addresses and no other. The check
 * and the connection therefore see the same answer: a host cannot pass the check with a public address and then be
 * connected to an internal one (DNS rebinding). TLS still verifies the certificate against the host name, and sends
 * it as SNI: only the address comes from here.
 *
 * <p>A refused address ends the call with the policy's {@link io.erasure.store.spi.StoreException.Fatal}, which the
 * client passes through unchanged.
 */
final class CheckedDnsResolver implements DnsResolver {

    private final TargetPolicy policy;

    CheckedDnsResolver(TargetPolicy policy) {
        this.policy = policy;
    }

    @Override
    public InetAddress[] resolve(String host) throws UnknownHostException {
        return policy.reachableAddresses(host).toArray(InetAddress[]::new);
    }

    // used only by SPNEGO/Kerberos authentication, which callbacks do not use; never a second lookup
    @Override
    public String resolveCanonicalHostname(String host) {
        return host;
    }
}
