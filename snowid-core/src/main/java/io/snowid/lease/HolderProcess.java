package io.snowid.lease;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.Optional;

/**
 * Who a lease record's holder is, and whether that process is provably still alive or provably
 * gone. A pid means something only inside its PID namespace (every container's first process is pid
 * 1), so a verdict is given only when the record's namespace is this process's; otherwise the
 * answer is {@link Liveness#UNKNOWN} and the record's expiry decides.
 */
final class HolderProcess {
  enum Liveness {
    ALIVE,
    DEAD,
    UNKNOWN
  }

  private static final long PID = ProcessHandle.current().pid();
  private static final String PID_NAMESPACE = readPidNamespace();
  private static final long START =
      ProcessHandle.current().info().startInstant().map(Instant::toEpochMilli).orElse(-1L);
  private static final String HOST = readHostName();

  private HolderProcess() {}

  static long pid() {
    return PID;
  }

  static String pidNamespace() {
    return PID_NAMESPACE;
  }

  static long start() {
    return START;
  }

  static String host() {
    return HOST;
  }

  /** Whether the process a record names still runs, judged only within this PID namespace. */
  static Liveness of(LeaseRecord r) {
    // The host too: every Linux host's first PID namespace has the same inode number, and a
    // directory may be shared by several hosts (NFS).
    if (r.pid() <= 0
        || r.pidNamespace().isEmpty()
        || !r.pidNamespace().equals(PID_NAMESPACE)
        || !r.host().equals(HOST)) {
      return Liveness.UNKNOWN;
    }
    Optional<ProcessHandle> p = ProcessHandle.of(r.pid());
    if (p.isEmpty() || !p.get().isAlive()) {
      return Liveness.DEAD;
    }
    Optional<Instant> started = p.get().info().startInstant();
    if (r.processStart() < 0 || started.isEmpty()) {
      return Liveness.UNKNOWN;
    }
    // The same pid, started at another time: the pid was reused by a new process. Start times are
    // reported to 10 ms (clock ticks) and may be rounded differently by the two readers.
    return Math.abs(started.get().toEpochMilli() - r.processStart()) <= 1_000
        ? Liveness.ALIVE
        : Liveness.DEAD;
  }

  private static String readHostName() {
    String host = System.getenv("HOSTNAME");
    if (host == null || host.isBlank()) {
      try {
        host = java.net.InetAddress.getLocalHost().getHostName();
      } catch (java.io.IOException e) {
        host = "";
      }
    }
    String safe = host.replaceAll("[^A-Za-z0-9._-]", "_");
    return safe.length() > 100 ? safe.substring(0, 100) : safe;
  }

  /** {@code pid:[inode]} of this process's PID namespace on Linux; empty elsewhere. */
  private static String readPidNamespace() {
    Path link = Paths.get("/proc/self/ns/pid");
    try {
      return Files.isSymbolicLink(link) ? Files.readSymbolicLink(link).toString() : "";
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return "";
    }
  }
}
