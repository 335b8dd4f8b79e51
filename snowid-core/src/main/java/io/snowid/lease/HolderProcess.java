package io.snowid.lease;

import io.snowid.node.HostEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Who a lease record's holder is, and whether that process is provably still alive or provably
 * gone. Judged only on Linux, only for a record written on this host, from the kernel's own
 * identities: host name, boot id, PID namespace, pid and start time in clock ticks since boot, all
 * read from {@code /proc} (docs/design.md, "The {@code file:} backend", who a holder is); anything
 * else is {@link Liveness#UNKNOWN} and the record's expiry decides.
 */
final class HolderProcess {
  enum Liveness {
    ALIVE,
    DEAD,
    UNKNOWN
  }

  private static final long PID = ProcessHandle.current().pid();
  private static final String PID_NAMESPACE = readPidNamespace();
  private static final String BOOT_ID = readBootId();
  private static final long START_TICKS = startTicks(PID);
  private static final String HOST = readHostName();

  private HolderProcess() {}

  static long pid() {
    return PID;
  }

  static String pidNamespace() {
    return PID_NAMESPACE;
  }

  static String bootId() {
    return BOOT_ID;
  }

  static long startTicks() {
    return START_TICKS;
  }

  static String host() {
    return HOST;
  }

  /** Whether the record names this very process. */
  static boolean isThisProcess(LeaseRecord r) {
    return r.pid() == PID
        && r.startTicks() == START_TICKS
        && r.bootId().equals(BOOT_ID)
        && r.pidNamespace().equals(PID_NAMESPACE)
        && r.host().equals(HOST);
  }

  /**
   * Whether the holder a record names still holds it: for a record of this very process, whether a
   * coordinator in this JVM holds its token (else one closed without a release left it); for
   * another process, {@link #of}.
   */
  static Liveness ofHolder(LeaseRecord r) {
    if (isThisProcess(r)) {
      return ProcessFileClaims.isLiveToken(r.token()) ? Liveness.ALIVE : Liveness.DEAD;
    }
    return of(r);
  }

  /** Whether the process a record names still runs. */
  static Liveness of(LeaseRecord r) {
    if (r.pid() <= 0
        || r.startTicks() < 0
        || BOOT_ID.isEmpty()
        || r.bootId().isEmpty()
        || HOST.isEmpty()
        || !r.host().equals(HOST)) {
      return Liveness.UNKNOWN;
    }
    if (!r.bootId().equals(BOOT_ID)) {
      return Liveness.DEAD; // this host rebooted since: every process of that boot is gone
    }
    if (PID_NAMESPACE.isEmpty() || !r.pidNamespace().equals(PID_NAMESPACE)) {
      return Liveness.UNKNOWN;
    }
    long started = startTicks(r.pid());
    if (started == -2) {
      return Liveness.DEAD; // no such process
    }
    if (started < 0) {
      return Liveness.UNKNOWN;
    }
    return started == r.startTicks() ? Liveness.ALIVE : Liveness.DEAD; // else: a reused pid
  }

  /**
   * Field 22 of {@code /proc/<pid>/stat}: the start time in clock ticks since boot (not {@code
   * ProcessHandle}'s {@code startInstant()}, which moves with the wall clock); -2 if there is no
   * such process, -1 if it cannot be read.
   */
  static long startTicks(long pid) {
    try {
      String stat = Files.readString(Paths.get("/proc", Long.toString(pid), "stat"));
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so count from the last ')'
      String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      return Long.parseLong(fields[22 - 3]);
    } catch (NoSuchFileException e) {
      return Files.isDirectory(Paths.get("/proc/self")) ? -2 : -1;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  private static String readBootId() {
    try {
      return Files.readString(Paths.get("/proc/sys/kernel/random/boot_id")).trim();
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /** The kernel's host name (the UTS namespace's): no DNS, the same for every process here. */
  private static String readHostName() {
    String host;
    try {
      host = Files.readString(Paths.get("/proc/sys/kernel/hostname")).trim();
    } catch (IOException | RuntimeException e) {
      host = HostEnvironment.system().hostName();
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
