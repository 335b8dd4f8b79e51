package io.snowid.node;

import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * What snowid reads of the machine it runs on to choose node values: environment variables, a few
 * files (container markers, the cgroup), the addresses of the network interfaces and the host name.
 * {@link #system()} reads the real machine; a test, or a platform that knows better, passes its
 * own.
 */
public interface HostEnvironment {
  /** An environment variable; null when it is not set. */
  String variable(String name);

  /** The contents of a file; empty when it does not exist or cannot be read. */
  Optional<String> readFile(String path);

  /** The addresses of the network interfaces that are up, loopback interfaces left out. */
  List<InetAddress> interfaceAddresses();

  /** This machine's host name; empty when it cannot be found. */
  String hostName();

  /** The machine this JVM runs on. */
  static HostEnvironment system() {
    return SystemEnvironment.INSTANCE;
  }
}
