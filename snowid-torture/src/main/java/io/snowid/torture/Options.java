package io.snowid.torture;

import io.snowid.Layout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/** The harness's command line, checked: a bad value throws {@link Bad} naming it. */
record Options(
    String coordinator,
    long seconds,
    long seed,
    int workers,
    int hosts,
    long ttlMillis,
    List<FaultKind> faults,
    long budgetBytes,
    Path dir,
    boolean keep,
    boolean mixed,
    String netPrefix,
    int net,
    Layout layout,
    Path check,
    boolean availability,
    boolean everyKind) {

  /**
   * The fleet's layout, the one the checker decodes with: a clockback field, so that workers of
   * every wall-clock policy share one ID space, and one node field; {@link NodeSetup} writes the
   * same space with two.
   */
  static final String LAYOUT =
      "time=41,clockback=3,worker=7,sequence=12,epoch=2010-11-04T01:42:54.657Z,unit=1ms";

  /** A bad option: one line for stderr, exit code 2. */
  static final class Bad extends Exception {
    private static final long serialVersionUID = 1L;

    Bad(String message) {
      super(message);
    }
  }

  static String help() {
    StringBuilder sb = new StringBuilder();
    sb.append(
        """
        Usage: bench/torture.sh [--coordinator URI] [--seconds N] [--seed S] [options]

        Runs a fleet of worker JVMs that take IDs as fast as they can through one lease
        coordinator, applies a seeded schedule of faults, and checks every ID: duplicates,
        per-process order, IDs under node values the process did not hold (by the registry's
        own records), and reports each fault kind's recovery against its availability target.
        Exit code 0 only when all three are 0 (and, with --availability, every target is met);
        1 otherwise; 2 for bad options.

          --coordinator URI  file: | redis:// | jdbc:postgresql:// | jdbc:mariadb:// |
                             zookeeper:// | etcd:// (default file:). The harness always starts
                             a registry of its own (a lease directory, redis-server, a
                             PostgreSQL, MariaDB, ZooKeeper or etcd data directory); only the
                             URI's scheme is used.
          --seconds N        how long the fleet runs (default 60, 10..86400)
          --seed S           the schedule's seed (default random; printed)
          --workers N        worker slots (default 8, 1..64)
          --hosts N          network namespaces for the workers of a network coordinator
                             (default 4, 0 = none: process faults only)
          --ttl MS           the lease time in milliseconds (default 2000 for file:, 5000 for
                             a network coordinator; 500..60000), and every worker's maxTtl
                             (maxSkew is 1 s)
          --faults LIST      comma-separated fault kinds (default: every kind that applies)
          --every-kind       the first faults are one of each kind, in the order of --faults,
                             then kinds are drawn at random (for short runs)
          --budget SIZE      disk for the IDs of the run (default 2g): each worker slot may
                             write budget / (workers x seconds) per second on average; beyond
                             that it is rate-limited (never sampled: every ID issued is checked)
          --dir DIR          where the run writes (default /tmp/snowid-torture/RUN)
          --keep             keep the ID files after a passing run (default: deleted)
          --mixed            (default) each worker slot runs one of four configurations of
                             the fleet's ID space, drawn from the seed: worker=7, leased;
                             datacenter=2,worker=5, both leased; the same with
                             SNOWID_DATACENTER_ID set (0 half the time, else 1-3; left out
                             above 16 slots) and the worker leased; the same with
                             fields=worker,datacenter. Half the slots lease for 2/5 of --ttl
                             (at least 800 ms), the others for --ttl; under libfaketime each
                             slot's clock stands up to 0.8 s ahead or behind. The output and
                             the report name the configuration of each slot
          --no-mixed         every slot runs worker=7, leased
          --check DIR        only run the checker on a run directory kept before
          --availability     a fault kind whose recoveries (from the fault's end to IDs
                             again) miss their target fails the run too (exit 1); without
                             it the targets are reported only. Target: median <= 2 s and
                             longest <= --ttl, each plus the wait uniqueness needs after
                             the kind (the report names it): kill and restart-clock-back
                             ttl - margin; a registry
                             that lost its state (registry-rollback, Redis's restart)
                             maxTtl + 2 x maxSkew + 1 s

        Fault kinds:
        """);
    for (FaultKind k : FaultKind.values()) {
      StringBuilder line = new StringBuilder(String.format("  %-20s", k.label()));
      for (String word : k.description.split(" ")) {
        if (line.length() + 1 + word.length() > 92) {
          sb.append(line).append('\n');
          line = new StringBuilder(" ".repeat(22));
        }
        line.append(' ').append(word);
      }
      sb.append(line).append('\n');
    }
    sb.append(
        """

        partition, link-down and delay need network namespaces (root, iproute2, iptables) and a
        network coordinator; clock faults need libfaketime (apt-get install faketime);
        registry-restart needs a network coordinator. Kinds that cannot apply are left out
        with a note.
        """);
    return sb.toString();
  }

  static Options parse(String... args) throws Bad {
    String coordinator = "file:";
    long seconds = 60;
    Long seed = null;
    int workers = 8;
    int hosts = 4;
    Long ttl = null;
    List<FaultKind> faults = null;
    long budget = 2L << 30;
    Path dir = null;
    boolean keep = false;
    boolean mixed = true;
    Path check = null;
    boolean availability = false;
    boolean everyKind = false;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--keep")) {
        keep = true;
        continue;
      }
      if (a.equals("--availability")) {
        availability = true;
        continue;
      }
      if (a.equals("--every-kind")) {
        everyKind = true;
        continue;
      }
      if (a.equals("--mixed") || a.equals("--no-mixed")) {
        mixed = a.equals("--mixed");
        continue;
      }
      if (!a.startsWith("--")) {
        throw new Bad("unexpected argument " + a + " (see --help)");
      }
      if (i + 1 >= args.length) {
        throw new Bad(a + " needs a value");
      }
      String v = args[++i];
      switch (a) {
        case "--coordinator" -> coordinator = coordinator(v);
        case "--seconds" -> seconds = number(a, v, 10, 86_400);
        case "--seed" -> seed = number(a, v, Long.MIN_VALUE, Long.MAX_VALUE);
        case "--workers" -> workers = (int) number(a, v, 1, 64);
        case "--hosts" -> hosts = (int) number(a, v, 0, 32);
        case "--ttl" -> ttl = number(a, v, 500, 60_000);
        case "--faults" -> faults = kinds(v);
        case "--budget" -> budget = size(v);
        case "--dir" -> dir = Path.of(v);
        case "--check" -> check = Path.of(v);
        default -> throw new Bad("unknown option " + a + " (see --help)");
      }
    }
    long s = seed != null ? seed : ThreadLocalRandom.current().nextLong();
    if (ttl == null) {
      ttl = coordinator.equals("file:") ? 2000L : 5000L;
    }
    long pid = ProcessHandle.current().pid();
    return new Options(
        coordinator,
        seconds,
        s,
        workers,
        hosts,
        ttl,
        faults == null ? List.of(FaultKind.values()) : faults,
        budget,
        dir,
        keep,
        mixed,
        "snt" + (pid % 10_000),
        (int) (pid % 200) + 20,
        Layout.parse(LAYOUT),
        check,
        availability,
        everyKind);
  }

  /** The registry kind of a coordinator URI. */
  static String coordinator(String uri) throws Bad {
    String u = uri.toLowerCase(Locale.ROOT);
    if (u.startsWith("file:")) {
      return "file:";
    }
    if (u.startsWith("redis://")) {
      return "redis://";
    }
    if (u.startsWith("jdbc:postgresql:")) {
      return "jdbc:postgresql://";
    }
    if (u.startsWith("jdbc:mariadb:")) {
      return "jdbc:mariadb://";
    }
    if (u.startsWith("zookeeper://")) {
      return "zookeeper://";
    }
    if (u.startsWith("etcd://")) {
      return "etcd://";
    }
    throw new Bad(
        "--coordinator "
            + uri
            + " is not supported; allowed: file:, redis://, jdbc:postgresql://, jdbc:mariadb://,"
            + " zookeeper://, etcd://");
  }

  boolean network() {
    return !coordinator.equals("file:");
  }

  private static long number(String option, String v, long min, long max) throws Bad {
    try {
      long n = Long.parseLong(v.trim());
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new Bad(option + " = " + v + " is invalid; allowed: " + min + ".." + max);
  }

  private static List<FaultKind> kinds(String v) throws Bad {
    List<FaultKind> out = new ArrayList<>();
    if (v.isBlank() || v.equals("none")) {
      return out;
    }
    for (String k : v.split(",")) {
      try {
        out.add(FaultKind.named(k));
      } catch (IllegalArgumentException e) {
        List<String> labels = new ArrayList<>();
        for (FaultKind f : FaultKind.values()) {
          labels.add(f.label());
        }
        throw new Bad("--faults: unknown fault kind " + k + "; allowed: " + labels + " or none");
      }
    }
    return out;
  }

  private static long size(String v) throws Bad {
    String s = v.trim().toLowerCase(Locale.ROOT);
    long unit = 1;
    if (s.endsWith("g")) {
      unit = 1L << 30;
    } else if (s.endsWith("m")) {
      unit = 1L << 20;
    } else if (s.endsWith("k")) {
      unit = 1L << 10;
    }
    if (unit > 1) {
      s = s.substring(0, s.length() - 1);
    }
    try {
      long n = Long.parseLong(s) * unit;
      if (n >= (16L << 20) && n <= (1L << 40)) {
        return n;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new Bad("--budget = " + v + " is invalid; allowed: 16m..1024g");
  }
}
