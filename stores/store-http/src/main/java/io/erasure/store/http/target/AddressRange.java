package io.erasure.store.http.target;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A block of addresses in CIDR form ({@code 100.64.0.0/10}, {@code 64:ff9b::/96}; a bare address is the block of
 * that address alone), with what it is for, so that a refusal can say which range an address is in.
 *
 * @param cidr         as written, for messages
 * @param purpose      what the range is for ({@code "loopback"}, {@code "private network, RFC 1918"}), for messages
 * @param network      the first address of the block (bits after the prefix are ignored)
 * @param prefixLength how many leading bits every address of the block shares with {@code network}
 */
public record AddressRange(String cidr, String purpose, InetAddress network, int prefixLength) {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("[0-9a-fA-F:.]*:[0-9a-fA-F:.]*");

    public AddressRange {
        Objects.requireNonNull(cidr, "cidr");
        Objects.requireNonNull(purpose, "purpose");
        Objects.requireNonNull(network, "network");
        int bits = network.getAddress().length * 8;
        if (prefixLength < 0 || prefixLength > bits) {
            throw new IllegalArgumentException("'" + cidr + "': the prefix length must be 0 to " + bits);
        }
    }

    /**
     * The range {@code cidr} ({@code a.b.c.d/n}, {@code x:y::z/n} or a bare address). Only address literals are
     * read: a host name is refused, never looked up.
     *
     * @throws IllegalArgumentException if {@code cidr} is not an address literal with an optional prefix length
     */
    public static AddressRange parse(String cidr, String purpose) {
        String text = cidr.trim();
        int slash = text.indexOf('/');
        String literal = slash < 0 ? text : text.substring(0, slash);
        if (!IPV4.matcher(literal).matches() && !IPV6.matcher(literal).matches()) {
            throw new IllegalArgumentException("'" + cidr + "' is not an IPv4 or IPv6 address (a.b.c.d/n or x:y::z/n)");
        }
        InetAddress network;
        try {
            // a literal: the JDK parses it and does no lookup
            network = InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(
                    "'" + cidr + "' is not an IPv4 or IPv6 address (a.b.c.d/n or x:y::z/n)", e);
        }
        int bits = network.getAddress().length * 8;
        int prefixLength;
        try {
            prefixLength = slash < 0 ? bits : Integer.parseInt(text.substring(slash + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "'" + cidr + "': the prefix length must be a number from 0 to " + bits, e);
        }
        return new AddressRange(text, purpose, network, prefixLength);
    }

    /** True if {@code address} is of the same family and shares the first {@link #prefixLength} bits. */
    public boolean contains(InetAddress address) {
        byte[] block = network.getAddress();
        byte[] candidate = address.getAddress();
        if (block.length != candidate.length) {
            return false;
        }
        int whole = prefixLength / 8;
        for (int i = 0; i < whole; i++) {
            if (block[i] != candidate[i]) {
                return false;
            }
        }
        int rest = prefixLength % 8;
        if (rest == 0) {
            return true;
        }
        int mask = 0xff << (8 - rest) & 0xff;
        return (block[whole] & mask) == (candidate[whole] & mask);
    }

    /** {@code cidr (purpose)}, for messages. */
    public String describe() {
        return cidr + " (" + purpose + ")";
    }
}
