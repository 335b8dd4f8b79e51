package io.snowid.torture;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One torture run: sets up hosts, the registry and the fleet, applies the schedule, stops
 * everything, collects the registry's holds and runs the {@link Checker}. {@link #close()} (also on
 * failure) removes every process, namespace and registry instance it made.
 */
final class Run implements AutoCloseable {
  /** Every worker's maxSkew. */
  static final long MAX_SKEW_MILLIS = 1_000;

  /**
   * Every worker's maxTtl in a run with lease time {@code ttlMillis}: the lease time, at least 1 s.
   */
  static long maxTtlMillis(long ttlMillis) {
    return Math.max(ttlMillis, 1_000);
  }

  private final Options options;
  private final Path dir;
  private final Timeline timeline = new Timeline();
  private final Pids pids;
  private final List<DelayRelay> relays = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private Hosts hosts;
  private Registry registry;
  private FakeClocks clocks;
  private Fleet fleet;
  private List<NodeSetup> setups = List.of();
  private FaultLog faultLog;
  private ScheduledExecutorService faults;
  private Thread sampler;
  private Thread snapshots;
  private final Deque<Registry.Snapshot> snapshotsTaken = new ArrayDeque<>();
  private boolean closed;

  Run(Options options) throws IOException {
    this.options = options;
    this.dir =
        options.dir() != null
            ? options.dir()
            : Path.of(
                "/tmp/snowid-torture",
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))
                    + "-"
                    + Long.toUnsignedString(options.seed(), 36));
    Files.createDirectories(dir);
    this.pids = new Pids(dir.resolve("pids"));
  }

  Path dir() {
    return dir;
  }

  /** Runs the whole schedule and checks it. */
  Checker.Report execute() throws IOException, InterruptedException {
    say(
        "snowid torture: coordinator %s, %d s, seed %d, %d workers (%s), lease time %d ms, in %s",
        options.coordinator(),
        options.seconds(),
        options.seed(),
        options.workers(),
        options.mixed() ? "mixed configurations" : "one configuration",
        options.ttlMillis(),
        dir);
    timeline.sample();
    sampler = new Thread(this::sample, "timeline");
    sampler.setDaemon(true);
    sampler.start();

    InetAddress bind = InetAddress.getLoopbackAddress();
    if (options.network() && options.hosts() > 0) {
      try {
        hosts =
            Hosts.create(
                options.netPrefix(),
                options.hosts(),
                options.net(),
                new Pids(dir.resolve("network")));
        bind = hosts.registryAddress();
        say(
            "hosts: %d network namespaces %s-h0.. on 10.213.%d.0/24, registry on %s",
            options.hosts(), options.netPrefix(), options.net(), bind.getHostAddress());
      } catch (IOException e) {
        note("network namespaces cannot be made (" + e.getMessage() + "): process faults only");
      }
    } else if (options.network()) {
      note("--hosts 0: all workers on this host, process faults only");
    }
    setups =
        NodeSetup.plan(
            options.seed(),
            options.workers(),
            options.mixed(),
            !options.network(),
            options.ttlMillis());
    registry = open(bind);
    if (hosts != null) {
      for (int h = 0; h < hosts.count(); h++) {
        relays.add(new DelayRelay(bind, registry.endpoint()));
      }
    }
    if (FakeClocks.available()) {
      clocks =
          new FakeClocks(
              dir.resolve("clocks"),
              setups.stream().mapToLong(NodeSetup::clockOffsetMillis).toArray());
    } else if (options.mixed()) {
      note("every worker on the real clock: libfaketime is not installed");
    }
    List<FaultKind> kinds = applicable();
    if (kinds.contains(FaultKind.REGISTRY_ROLLBACK)) {
      snapshots = new Thread(this::takeSnapshots, "snapshots");
      snapshots.setDaemon(true);
      snapshots.start();
    }
    List<Fault> plan =
        Schedule.plan(
            options.seed(),
            kinds,
            options.seconds(),
            options.workers(),
            hosts == null ? 0 : hosts.count(),
            options.ttlMillis(),
            options.everyKind());
    StringBuilder schedule = new StringBuilder();
    for (Fault f : plan) {
      schedule.append(f.describe()).append('\n');
    }
    Files.writeString(dir.resolve("schedule.txt"), schedule);
    say("schedule (seed %d, %d faults):%n%s", options.seed(), plan.size(), schedule);
    if (options.mixed() && options.workers() > NodeSetup.FIXED_MAX_SLOTS) {
      note(
          "no slot fixes SNOWID_DATACENTER_ID: more than "
              + NodeSetup.FIXED_MAX_SLOTS
              + " slots could hold every worker id of one datacenter value");
    }
    for (int s = 0; s < options.workers(); s++) {
      say(
          "worker slot %d: %s, %s%s",
          s,
          TimeMode.ofSlot(s),
          setups.get(s).describe(),
          hosts == null ? "" : ", host " + (s % hosts.count()));
    }

    long bytesPerSecond =
        Math.max(1 << 16, options.budgetBytes() / options.workers() / (options.seconds() + 10));
    fleet =
        new Fleet(
            new Fleet.Config(
                dir,
                setups,
                options.workers(),
                hosts,
                registry,
                relays,
                clocks,
                bytesPerSecond,
                options.budgetBytes() / options.workers(),
                pids));
    faultLog = new FaultLog(dir.resolve("faults.log"), timeline);
    faults = Executors.newScheduledThreadPool(16);
    List<Integer> slow = fleet.startAll(120);
    if (!slow.isEmpty()) {
      note("worker slots " + slow + " issued no ID within 120 s of their start");
    }
    say("every worker issues: the schedule starts");
    long start = System.nanoTime();
    for (Fault f : plan) {
      faults.schedule(() -> apply(f), f.atMillis(), TimeUnit.MILLISECONDS);
    }
    long end = start + TimeUnit.SECONDS.toNanos(options.seconds());
    for (long left; (left = end - System.nanoTime()) > 0; ) {
      TimeUnit.NANOSECONDS.sleep(Math.min(left, TimeUnit.SECONDS.toNanos(10)));
    }
    faults.shutdown();
    if (snapshots != null) {
      snapshots.interrupt();
    }
    if (!faults.awaitTermination(2, TimeUnit.MINUTES)) {
      note("faults still being applied 2 minutes after the end: stopped");
      faults.shutdownNow();
    }
    writeRunProperties(kinds, start / 1000, Timeline.monoMicros());
    say("stopping the workers");
    fleet.close();
    fleet.exits().forEach(e -> note("worker " + e));
    relays.forEach(DelayRelay::close);
    timeline.sample();
    List<Hold> registryHolds = registry.stopAndReadHolds(timeline);
    timeline.save(dir.resolve("timeline.txt"));
    StringBuilder holds = new StringBuilder();
    for (Hold h : registryHolds) {
      holds.append(h.line()).append('\n');
    }
    Files.writeString(dir.resolve("holds.txt"), holds);
    StringBuilder losses = new StringBuilder();
    for (long[] l : registry.lossRecordsSeen()) {
      losses.append(l[0]).append(' ').append(l[1]).append('\n');
    }
    Files.writeString(dir.resolve("losses.txt"), losses);
    say("holds from %s", registry.holdsSource());
    say("checking");
    Checker.Report report = Checker.check(dir, options.availability());
    StringBuilder text = new StringBuilder();
    notes.forEach(n -> text.append("note: ").append(n).append('\n'));
    text.append("holds from ").append(registry.holdsSource()).append('\n');
    text.append(report.text());
    Files.writeString(dir.resolve("report.txt"), text + "\nfaults applied:\n" + report.faultList());
    System.out.print(text);
    if (report.passed() && !options.keep()) {
      deleteIds();
    }
    return report;
  }

  private Registry open(InetAddress bind) throws IOException, InterruptedException {
    // limits as tight as the lease time: after a registry loss the workers wait out
    // maxTtl + 2 × maxSkew + 1 s, not the default 41 s; each slot adds its own ttl (NodeSetup)
    String leaseOptions =
        "namespace=torture&maxTtl="
            + maxTtlMillis(options.ttlMillis())
            + "ms&maxSkew="
            + MAX_SKEW_MILLIS
            + "ms";
    return switch (options.coordinator()) {
      case "file:" -> new FileRegistry(dir.resolve("leases"), leaseOptions);
      case "redis://" ->
          new RedisRegistry(dir.resolve("redis"), bind, this::ttlOf, leaseOptions, pids);
      case "jdbc:postgresql://" ->
          new PostgresRegistry(dir.resolve("postgresql"), bind, leaseOptions, pids);
      case "jdbc:mariadb://" ->
          new MariaDbRegistry(dir.resolve("mariadb"), bind, leaseOptions, pids);
      case "zookeeper://" ->
          new ZooKeeperRegistry(dir.resolve("zookeeper"), bind, leaseOptions, pids);
      case "etcd://" ->
          new EtcdRegistry(dir.resolve("etcd"), bind, this::ttlOf, leaseOptions, pids);
      default -> throw new IOException(options.coordinator() + " has no registry");
    };
  }

  /** The lease time of a worker instance {@code w<slot>-<incarnation>}. */
  private long ttlOf(String instance) {
    int dash = instance.indexOf('-');
    if (!instance.startsWith("w") || dash < 0) {
      throw new IllegalArgumentException("not a worker instance: " + instance);
    }
    return setups.get(Integer.parseInt(instance.substring(1, dash))).ttlMillis();
  }

  /** Takes a snapshot of the registry every half second, keeping the last two minutes. */
  private void takeSnapshots() {
    while (!Thread.currentThread().isInterrupted()) {
      try {
        Registry.Snapshot s = registry.snapshot();
        synchronized (snapshotsTaken) {
          snapshotsTaken.addLast(s);
          while (snapshotsTaken.getFirst().monoMillis() < s.monoMillis() - 120_000) {
            snapshotsTaken.removeFirst();
          }
        }
      } catch (IOException | RuntimeException e) {
        // the registry is down (a restart): the next one
      }
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** The newest snapshot at least {@code ageMillis} old; null if none is. */
  private Registry.Snapshot snapshotOlderThan(long ageMillis) {
    long by = Timeline.monoMicros() / 1000 - ageMillis;
    synchronized (snapshotsTaken) {
      Registry.Snapshot found = null;
      for (Registry.Snapshot s : snapshotsTaken) {
        if (s.monoMillis() <= by) {
          found = s;
        }
      }
      return found;
    }
  }

  private List<FaultKind> applicable() {
    List<FaultKind> kinds = new ArrayList<>();
    for (FaultKind k : options.faults()) {
      String why =
          switch (k.needs) {
            case PROCESS -> null;
            case RESTARTABLE_REGISTRY ->
                registry.restartable()
                    ? null
                    : "the " + registry.name() + " registry has no server";
            case HOSTS -> hosts != null ? null : "no network namespaces";
            case FAKETIME ->
                clocks != null ? null : "libfaketime is not installed (apt-get install faketime)";
          };
      if (why == null && k == FaultKind.REGISTRY_ROLLBACK) {
        why = registry.cannotRollBack();
      }
      if (why == null) {
        kinds.add(k);
      } else {
        note(k.label() + " left out: " + why);
      }
    }
    return kinds;
  }

  private void apply(Fault f) {
    try {
      long from = Timeline.monoMicros();
      int t = f.target();
      long d = f.durationMillis();
      long m = f.magnitudeMillis();
      String slots = Integer.toString(t);
      String detail = "";
      switch (f.kind()) {
        case KILL -> fleet.killAndReplace(t, () -> {});
        case PAUSE -> {
          fleet.signal(t, true);
          Thread.sleep(d);
          fleet.signal(t, false);
        }
        case REGISTRY_RESTART -> {
          registry.restart(d);
          slots = "all";
        }
        case REGISTRY_ROLLBACK -> {
          Registry.Snapshot s = snapshotOlderThan(m);
          if (s == null) {
            throw new IOException("no snapshot of the registry is " + m + " ms old yet");
          }
          registry.rollback(s);
          slots = "all";
          detail = "to its state " + (from / 1000 - s.monoMillis()) + "ms before";
        }
        case PARTITION -> {
          hosts.cut(t);
          Thread.sleep(d);
          hosts.heal(t);
          slots = fleet.slotsOn(t);
        }
        case LINK_DOWN -> {
          hosts.linkDown(t);
          Thread.sleep(d);
          hosts.linkUp(t);
          slots = fleet.slotsOn(t);
        }
        case DELAY -> {
          relays.get(t).delay(m);
          Thread.sleep(d);
          relays.get(t).delay(0);
          slots = fleet.slotsOn(t);
          detail = m + "ms";
        }
        case CLOCK_BACK, CLOCK_FORWARD -> {
          long step = f.kind() == FaultKind.CLOCK_BACK ? -m : m;
          long offset = clocks.step(t, step);
          Thread.sleep(d);
          clocks.step(t, -step);
          detail = "step " + step + "ms to offset " + offset + "ms";
        }
        case RESTART_CLOCK_BACK -> {
          long[] offset = new long[1];
          fleet.killAndReplace(t, () -> offset[0] = clocks.step(t, -m));
          Thread.sleep(d);
          clocks.step(t, m);
          detail = "replacement started at offset " + offset[0] + "ms";
        }
      }
      faultLog.add(
          new FaultLog.Applied(
              f.kind(), t, from, Timeline.monoMicros(), slots, f.magnitudeMillis(), detail));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException | RuntimeException e) {
      note("fault " + f.describe().trim() + " failed: " + e);
    }
  }

  private void writeRunProperties(List<FaultKind> kinds, long startMicros, long stopMicros)
      throws IOException {
    Properties p = new Properties();
    p.setProperty("startMicros", Long.toString(startMicros));
    p.setProperty("stopMicros", Long.toString(stopMicros));
    p.setProperty("coordinator", options.coordinator());
    p.setProperty("seconds", Long.toString(options.seconds()));
    p.setProperty("seed", Long.toString(options.seed()));
    p.setProperty("workers", Integer.toString(options.workers()));
    p.setProperty("hosts", Integer.toString(hosts == null ? 0 : hosts.count()));
    p.setProperty("ttlMillis", Long.toString(options.ttlMillis()));
    p.setProperty("layout", options.layout().spec());
    p.setProperty("faults", kinds.toString());
    p.setProperty("budgetBytes", Long.toString(options.budgetBytes()));
    p.setProperty("mixed", Boolean.toString(options.mixed()));
    for (int s = 0; s < setups.size(); s++) {
      p.setProperty("slot." + s, TimeMode.ofSlot(s) + ", " + setups.get(s).describe());
    }
    try (OutputStream out = Files.newOutputStream(dir.resolve("run.properties"))) {
      p.store(out, "snowid torture run");
    }
  }

  private void sample() {
    while (!Thread.currentThread().isInterrupted()) {
      timeline.sample();
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private void deleteIds() throws IOException {
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir.resolve("ids"), "*.ids")) {
      for (Path p : ds) {
        Files.delete(p);
      }
    }
  }

  private synchronized void note(String note) {
    notes.add(note);
    System.out.println("note: " + note);
  }

  private static void say(String format, Object... args) {
    System.out.printf(format + "%n", args);
  }

  /** Ends every process, relay, registry and namespace of the run; safe to call twice. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (faults != null) {
      faults.shutdownNow();
    }
    if (fleet != null) {
      fleet.close();
    }
    relays.forEach(DelayRelay::close);
    if (registry != null) {
      registry.close();
    }
    if (hosts != null) {
      hosts.close();
    }
    if (sampler != null) {
      sampler.interrupt();
    }
    if (snapshots != null) {
      snapshots.interrupt();
    }
  }
}
