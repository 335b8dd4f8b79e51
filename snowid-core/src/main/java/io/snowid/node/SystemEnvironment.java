package io.snowid.node;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/** {@link HostEnvironment#system()}: this JVM's environment, files, interfaces and host name. */
final class SystemEnvironment implements HostEnvironment {
  static final SystemEnvironment INSTANCE = new SystemEnvironment();

  /** Longer files are not what snowid looks for (markers, cgroup lists): read no more. */
  private static final int MAX_FILE = 64 * 1024;

  private SystemEnvironment() {}

  @Override
  public String variable(String name) {
    return System.getenv(name);
  }

  @Override
  public Optional<String> readFile(String path) {
    Path p = Paths.get(path);
    try {
      if (!Files.isRegularFile(p) || Files.size(p) > MAX_FILE) {
        return Optional.empty();
      }
      return Optional.of(new String(Files.readAllBytes(p), StandardCharsets.UTF_8));
    } catch (IOException | SecurityException e) {
      return Optional.empty();
    }
  }

  @Override
  public List<InetAddress> interfaceAddresses() {
    List<InetAddress> out = new ArrayList<>();
    try {
      for (NetworkInterface nif : Collections.list(NetworkInterface.getNetworkInterfaces())) {
        if (nif.isUp()
            && !nif.isLoopback()
            && !nif.isVirtual()) { // a virtual one's are its parent's
          out.addAll(Collections.list(nif.getInetAddresses()));
        }
      }
    } catch (SocketException e) {
      return List.of(); // no interfaces to read: as if there were none
    }
    return out;
  }

  @Override
  public String hostName() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "";
    }
  }
}
