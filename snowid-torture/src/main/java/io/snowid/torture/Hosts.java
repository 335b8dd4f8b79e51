package io.snowid.torture;

import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * Simulated hosts: one network namespace each, joined by a veth pair to a bridge in the harness's
 * namespace, where the registry listens on the bridge's address. A host can be cut off (iptables
 * DROP both ways inside its namespace), have its link taken down ({@code ip link set down} on the
 * bridge side of its veth), and healed.
 */
final class Hosts implements AutoCloseable {
  private final String prefix;
  private final int count;
  private final String subnet; // "10.213.N."
  private final Pids record;
  private final List<String> created = new ArrayList<>();
  private boolean bridge;

  private Hosts(String prefix, int count, String subnet, Pids record) {
    this.prefix = prefix;
    this.count = count;
    this.subnet = subnet;
    this.record = record;
  }

  /**
   * Creates {@code count} hosts named {@code PREFIX-hN} on the subnet {@code 10.213.NET.0/24},
   * naming each link and namespace in {@code record} before it is made (bench/torture.sh removes
   * them if the harness could not).
   *
   * @throws IOException naming the command that failed (no privilege, no iproute2, no iptables)
   */
  static Hosts create(String prefix, int count, int net, Pids record)
      throws IOException, InterruptedException {
    Hosts h = new Hosts(prefix, count, "10.213." + net + ".", record);
    try {
      h.setUp();
      return h;
    } catch (IOException | InterruptedException | RuntimeException e) {
      h.close();
      throw e;
    }
  }

  private void setUp() throws IOException, InterruptedException {
    String br = prefix + "-br";
    record.add("link " + br);
    cmd("ip", "link", "add", br, "type", "bridge");
    bridge = true;
    cmd("ip", "addr", "add", subnet + "1/24", "dev", br);
    cmd("ip", "link", "set", br, "up");
    for (int i = 0; i < count; i++) {
      String ns = namespace(i);
      record.add("netns " + ns);
      cmd("ip", "netns", "add", ns);
      created.add(ns);
      cmd("ip", "link", "add", ns, "type", "veth", "peer", "name", "eth0", "netns", ns);
      cmd("ip", "link", "set", ns, "master", br);
      cmd("ip", "link", "set", ns, "up");
      cmd("ip", "netns", "exec", ns, "ip", "addr", "add", subnet + (10 + i) + "/24", "dev", "eth0");
      cmd("ip", "netns", "exec", ns, "ip", "link", "set", "eth0", "up");
      cmd("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up");
    }
    // iptables must work inside a namespace, or partitions cannot be made: find out now
    cmd("ip", "netns", "exec", namespace(0), "iptables", "-L", "OUTPUT", "-n");
  }

  int count() {
    return count;
  }

  /** The registry's address: the bridge's, in the harness's namespace. */
  InetAddress registryAddress() throws IOException {
    return InetAddress.getByName(subnet + "1");
  }

  String namespace(int host) {
    return prefix + "-h" + host;
  }

  /** The command prefix that runs a program on a host. */
  List<String> enter(int host) {
    return List.of("ip", "netns", "exec", namespace(host));
  }

  /** Drops every packet between the host and the registry's address, both ways. */
  void cut(int host) throws IOException, InterruptedException {
    String reg = subnet + "1";
    cmd(
        "ip",
        "netns",
        "exec",
        namespace(host),
        "iptables",
        "-I",
        "OUTPUT",
        "-d",
        reg,
        "-j",
        "DROP");
    cmd("ip", "netns", "exec", namespace(host), "iptables", "-I", "INPUT", "-s", reg, "-j", "DROP");
  }

  void heal(int host) throws IOException, InterruptedException {
    String reg = subnet + "1";
    cmd(
        "ip",
        "netns",
        "exec",
        namespace(host),
        "iptables",
        "-D",
        "OUTPUT",
        "-d",
        reg,
        "-j",
        "DROP");
    cmd("ip", "netns", "exec", namespace(host), "iptables", "-D", "INPUT", "-s", reg, "-j", "DROP");
  }

  void linkDown(int host) throws IOException, InterruptedException {
    cmd("ip", "link", "set", namespace(host), "down");
  }

  void linkUp(int host) throws IOException, InterruptedException {
    cmd("ip", "link", "set", namespace(host), "up");
  }

  private static void cmd(String... command) throws IOException, InterruptedException {
    ServerProcess.Result r = ServerProcess.run(List.of(command), 30);
    if (!r.ok()) {
      throw new IOException(String.join(" ", command) + " failed: " + r.output());
    }
  }

  /** Deletes the namespaces (their veths and iptables rules go with them) and the bridge. */
  @Override
  public void close() {
    try {
      for (String ns : created) {
        ServerProcess.run(List.of("ip", "netns", "del", ns), 30);
      }
      created.clear();
      if (bridge) {
        ServerProcess.run(List.of("ip", "link", "del", prefix + "-br"), 30);
        bridge = false;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
