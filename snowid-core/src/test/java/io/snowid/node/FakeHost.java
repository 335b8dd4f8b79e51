package io.snowid.node;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A host made up for a test: its environment, files, interface addresses and host name. */
public final class FakeHost implements HostEnvironment {
  final Map<String, String> variables = new HashMap<>();
  final Map<String, String> files = new HashMap<>();
  final List<InetAddress> addresses = new ArrayList<>();
  String hostName = "";

  /** A plain host with one private IPv4 address. */
  public static FakeHost withAddress(String... addresses) {
    FakeHost h = new FakeHost();
    for (String a : addresses) {
      h.address(a);
    }
    return h;
  }

  public FakeHost address(String literal) {
    try {
      addresses.add(InetAddress.getByName(literal));
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
    return this;
  }

  public FakeHost set(String variable, String value) {
    variables.put(variable, value);
    return this;
  }

  public FakeHost file(String path, String contents) {
    files.put(path, contents);
    return this;
  }

  /** Inside Kubernetes, in a pod of this name (HOSTNAME, as Kubernetes sets it). */
  public FakeHost pod(String name) {
    return set("KUBERNETES_SERVICE_HOST", "10.96.0.1").set("HOSTNAME", name);
  }

  /** In a Docker container. */
  public FakeHost docker() {
    return file("/.dockerenv", "");
  }

  @Override
  public String variable(String name) {
    return variables.get(name);
  }

  @Override
  public Optional<String> readFile(String path) {
    return Optional.ofNullable(files.get(path));
  }

  @Override
  public List<InetAddress> interfaceAddresses() {
    return addresses;
  }

  @Override
  public String hostName() {
    return hostName;
  }
}
