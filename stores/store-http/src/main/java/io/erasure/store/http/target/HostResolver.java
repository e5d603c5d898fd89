package io.erasure.store.http.target;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/** Resolves a host name to every address it has; the system resolver in production, a fixed table in tests. */
@FunctionalInterface
public interface HostResolver {

    HostResolver SYSTEM = host -> List.of(InetAddress.getAllByName(host));

    List<InetAddress> resolve(String host) throws UnknownHostException;
}
