package io.snowid.node.internal;

import io.snowid.Layout;
import io.snowid.node.HostEnvironment;
import io.snowid.node.NodeIdSource;
import java.lang.System.Logger.Level;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The low bits of the host's IPv4 address, spread over the node fields no earlier source set: the
 * last resort of {@code auto}. Two hosts whose addresses share those bits collide, and so do two
 * processes on one host, so it logs a WARN naming the values, the address and the settings that
 * would replace it; in a container it adds the chance that containers collide. Inside Kubernetes it
 * refuses instead: a pod's address tells nothing that other pods' addresses do not share by chance.
 */
public final class Ipv4Source implements NodeIdSource {
  private static final System.Logger LOG = System.getLogger("io.snowid.node");

  private final HostEnvironment env;
  private final Consumer<String> warn;

  public Ipv4Source(HostEnvironment env) {
    this(env, message -> LOG.log(Level.WARNING, message));
  }

  /** With {@code warn} receiving the WARN instead of the log (for a test). */
  public Ipv4Source(HostEnvironment env, Consumer<String> warn) {
    this.env = env;
    this.warn = warn;
  }

  @Override
  public String name() {
    return "IPv4 low bits";
  }

  @Override
  public String lookedAt(Layout.Field field) {
    return "IPv4 low bits";
  }

  @Override
  public Map<String, Long> resolve(Layout layout, List<Layout.Field> wanted) {
    Platform platform = Platform.detect(env);
    if (platform.isKubernetes()) {
      throw LocalLeasePlan.kubernetesRefusal(
          env, platform, wanted, "node source auto takes them from the pod's IPv4 address");
    }
    Optional<Inet4Address> ip = usableAddress(env);
    if (ip.isEmpty()) {
      return Map.of();
    }
    Map<String, Long> values = Spread.over(wanted, number(ip.get()));
    int bits = Spread.bits(wanted);
    warn.accept(
        "node "
            + LocalLeasePlan.describe(values)
            + " taken from the low "
            + bits
            + " bits of this host's IPv4 address "
            + ip.get().getHostAddress()
            + " (node source auto): hosts whose addresses share those bits, and any two processes"
            + " on this host, get the same node id and issue duplicate IDs"
            + (platform.isContainer()
                ? "; in a container ("
                    + platform.evidence()
                    + ") the address is the container's own: "
                    + Collisions.describe(1L << bits, "containers")
                : "")
            + ". Give each process its own id with "
            + LocalLeasePlan.settingNames(wanted)
            + ", or lease one: snowid.node / SNOWID_NODE = file:DIR (the processes of one host) or"
            + " redis://… (several hosts)");
    return values;
  }

  /** The address as an unsigned 32-bit number. */
  static long number(Inet4Address ip) {
    byte[] b = ip.getAddress();
    return ((b[0] & 0xFFL) << 24) | ((b[1] & 0xFFL) << 16) | ((b[2] & 0xFFL) << 8) | (b[3] & 0xFFL);
  }

  /** A non-loopback, non-link-local IPv4 address of an interface that is up, site-local first. */
  static Optional<Inet4Address> usableAddress(HostEnvironment env) {
    Inet4Address fallback = null;
    for (InetAddress a : env.interfaceAddresses()) {
      if (a instanceof Inet4Address v4 && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
        if (a.isSiteLocalAddress()) {
          return Optional.of(v4);
        }
        fallback = fallback == null ? v4 : fallback;
      }
    }
    return Optional.ofNullable(fallback);
  }

  /** Whether an interface has an IPv6 address that other hosts can reach (not link-local). */
  static boolean hasRoutableIpv6(HostEnvironment env) {
    for (InetAddress a : env.interfaceAddresses()) {
      if (a instanceof Inet6Address && !a.isLoopbackAddress() && !a.isLinkLocalAddress()) {
        return true;
      }
    }
    return false;
  }
}
