package io.snowid.node;

import io.snowid.Layout;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The low bits of the host's IPv4 address, spread over the node fields no earlier source set. The
 * last resort: two hosts whose addresses share those bits collide, and so do two processes on one
 * host. The chain logs a WARN whenever it is used.
 */
final class Ipv4Source implements NodeIdSource {
  private final Supplier<Optional<Inet4Address>> address;

  Ipv4Source(Supplier<Optional<Inet4Address>> address) {
    this.address = address;
  }

  static Ipv4Source ofHost() {
    return new Ipv4Source(Ipv4Source::hostAddress);
  }

  @Override
  public String name() {
    return "IPv4 low bits";
  }

  @Override
  public Map<String, Long> resolve(Layout layout, List<Layout.Field> wanted) {
    Optional<Inet4Address> ip = address.get();
    if (ip.isEmpty()) {
      return Map.of();
    }
    byte[] b = ip.get().getAddress();
    long number =
        ((b[0] & 0xFFL) << 24) | ((b[1] & 0xFFL) << 16) | ((b[2] & 0xFFL) << 8) | (b[3] & 0xFFL);
    return Spread.over(wanted, number);
  }

  /** A non-loopback IPv4 address of an interface that is up, site-local ones first. */
  static Optional<Inet4Address> hostAddress() {
    Inet4Address fallback = null;
    try {
      for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        if (!nif.isUp() || nif.isLoopback() || nif.isVirtual()) {
          continue;
        }
        for (InetAddress a : Collections.list(nif.getInetAddresses())) {
          if (a instanceof Inet4Address v4 && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
            if (a.isSiteLocalAddress()) {
              return Optional.of(v4);
            }
            fallback = fallback == null ? v4 : fallback;
          }
        }
      }
    } catch (SocketException e) {
      return Optional.empty();
    }
    return Optional.ofNullable(fallback);
  }
}
