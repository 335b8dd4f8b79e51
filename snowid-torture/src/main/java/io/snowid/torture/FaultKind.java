package io.snowid.torture;

import java.util.Locale;

/** The faults the schedule draws from; {@code --help} lists them with these descriptions. */
enum FaultKind {
  KILL(Needs.PROCESS, "SIGKILL a worker and start a replacement at once"),
  PAUSE(Needs.PROCESS, "SIGSTOP a worker for 1.2-2.5 lease times, then SIGCONT"),
  REGISTRY_RESTART(
      Needs.RESTARTABLE_REGISTRY,
      "stop the registry hard and start it again: Redis shutdown nosave (comes back empty),"
          + " PostgreSQL pg_ctl stop -m immediate, MariaDB SIGKILL; down 0-2 s"),
  REGISTRY_ROLLBACK(
      Needs.RESTARTABLE_REGISTRY,
      "put the registry's whole lease state back, in one step, to a snapshot taken 1.2-6 lease"
          + " times + 1 s earlier, as a restore of an older backup does (Redis: FLUSHALL and RESTORE"
          + " of every key in one MULTI; SQL: DELETE and INSERT of every row in one transaction)"),
  PARTITION(
      Needs.HOSTS,
      "cut a host off the registry (iptables DROP both ways in its namespace) for 1.2-3 lease"
          + " times, then heal"),
  LINK_DOWN(Needs.HOSTS, "ip link set down on a host's veth for 1.2-3 lease times, then up"),
  DELAY(Needs.HOSTS, "delay a host's traffic to the registry by 100-1500 ms for 2-6 s"),
  CLOCK_BACK(
      Needs.FAKETIME,
      "step a worker's wall clock back 0.2-6 s (libfaketime), step it forward again 2-8 s later"),
  CLOCK_FORWARD(
      Needs.FAKETIME, "step a worker's wall clock forward 0.2-6 s, step it back again 2-8 s later"),
  RESTART_CLOCK_BACK(
      Needs.FAKETIME,
      "SIGKILL a worker and start its replacement with the clock set back one lease time + 1-5 s;"
          + " restore it 5-15 s later");

  /** What a kind needs to be applicable. */
  enum Needs {
    PROCESS,
    RESTARTABLE_REGISTRY,
    HOSTS,
    FAKETIME
  }

  final Needs needs;
  final String description;

  FaultKind(Needs needs, String description) {
    this.needs = needs;
    this.description = description;
  }

  /** {@code registry-restart} and so on. */
  String label() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  static FaultKind named(String label) {
    for (FaultKind k : values()) {
      if (k.label().equals(label.trim())) {
        return k;
      }
    }
    throw new IllegalArgumentException(label);
  }

  /** Whether a fault of this kind targets one host (else a worker slot, or the registry). */
  boolean onHost() {
    return needs == Needs.HOSTS;
  }

  boolean onRegistry() {
    return needs == Needs.RESTARTABLE_REGISTRY;
  }

  /**
   * Whether a fault of this kind keeps its slots from the registry while it lasts (a stopped or
   * replaced process, a cut link); a delay or a clock step does not.
   */
  boolean cutsOff() {
    return switch (this) {
      case PAUSE, KILL, PARTITION, LINK_DOWN, RESTART_CLOCK_BACK -> true;
      default -> false;
    };
  }
}
