package io.snowid.torture;

import io.snowid.testkit.ChildJvm;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The worker slots: each runs one worker JVM at a time (an incarnation, {@code wSLOT-N}); a killed
 * or exited worker is replaced by the next incarnation of its slot, as a supervisor would.
 */
final class Fleet implements AutoCloseable {
  static final List<String> JVM_OPTIONS =
      List.of(
          "-Xmx96m", "-Xss512k", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData");

  /** What every worker is started with; {@code setups} has one per slot. */
  record Config(
      Path runDir,
      List<NodeSetup> setups,
      int slots,
      Hosts hosts,
      Registry registry,
      List<DelayRelay> relays,
      FakeClocks clocks,
      long bytesPerSecond,
      long maxBytes,
      Pids pids) {}

  private final Config config;
  private final Slot[] slots;
  private final Thread supervisor;
  private volatile boolean stopping;
  private final List<String> exits = new ArrayList<>();

  private static final class Slot {
    final int index;
    int incarnation = -1;
    Process process;
    boolean harnessStopped; // killed by a fault: the fault starts the next one itself
    long restartAt = Long.MAX_VALUE;

    Slot(int index) {
      this.index = index;
    }
  }

  Fleet(Config config) throws IOException {
    this.config = config;
    Files.createDirectories(config.runDir().resolve("ids"));
    Files.createDirectories(config.runDir().resolve("logs"));
    this.slots = new Slot[config.slots()];
    for (int i = 0; i < slots.length; i++) {
      slots[i] = new Slot(i);
    }
    this.supervisor = new Thread(this::supervise, "supervisor");
    supervisor.setDaemon(true);
  }

  /**
   * Starts a worker in every slot and waits (up to {@code seconds}) until each has issued an ID: on
   * a loaded machine JVMs and first leases take a while, and the schedule should meet a running
   * fleet. Returns the slots that are not issuing yet.
   */
  List<Integer> startAll(long seconds) throws IOException, InterruptedException {
    for (Slot s : slots) {
      synchronized (s) {
        start(s);
      }
    }
    supervisor.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    List<Integer> waiting = new ArrayList<>();
    do {
      waiting.clear();
      for (Slot s : slots) {
        Path ready;
        synchronized (s) {
          ready = idsFile(s.index, s.incarnation);
        }
        if (!Files.exists(ready.resolveSibling(ready.getFileName() + ".ready"))) {
          waiting.add(s.index);
        }
      }
      Thread.sleep(100);
    } while (!waiting.isEmpty() && System.nanoTime() < deadline);
    return waiting;
  }

  private Path idsFile(int slot, int incarnation) {
    return config.runDir().resolve("ids").resolve("w" + slot + "-" + incarnation + ".ids");
  }

  int hostOf(int slot) {
    return config.hosts() == null ? -1 : slot % config.hosts().count();
  }

  /** The slots of a host ("all" without hosts), as the fault log writes them. */
  String slotsOn(int host) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < slots.length; i++) {
      if (hostOf(i) == host) {
        sb.append(sb.length() == 0 ? "" : ",").append(i);
      }
    }
    return sb.toString();
  }

  private void start(Slot s) throws IOException {
    s.incarnation++;
    s.harnessStopped = false;
    s.restartAt = Long.MAX_VALUE;
    String instance = "w" + s.index + "-" + s.incarnation;
    Path ids = config.runDir().resolve("ids").resolve(instance + ".ids");
    Path meta = config.runDir().resolve("ids").resolve(instance + ".meta");
    int host = hostOf(s.index);
    InetSocketAddress via =
        config.registry().endpoint() == null
            ? null
            : host < 0 ? config.registry().endpoint() : config.relays().get(host).address();
    NodeSetup setup = config.setups().get(s.index);
    ProcessBuilder pb =
        ChildJvm.of(
            WorkerMain.class,
            JVM_OPTIONS,
            config.registry().uri(via, instance) + setup.uriOptions(),
            ids.toString(),
            meta.toString(),
            setup.layout(),
            TimeMode.ofSlot(s.index).toString(),
            Long.toString(config.bytesPerSecond()),
            Long.toString(config.maxBytes()));
    if (host >= 0) {
      pb.command().addAll(0, config.hosts().enter(host));
    }
    pb.environment().keySet().removeIf(k -> k.startsWith("SNOWID_"));
    pb.environment().putAll(setup.environment());
    if (config.clocks() != null) {
      pb.environment().putAll(config.clocks().environment(s.index));
    }
    Path log = config.runDir().resolve("logs").resolve(instance + ".log");
    pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    pb.environment().put(WorkerMain.SPAWNED_NANOS, Long.toString(System.nanoTime()));
    s.process = pb.start();
    config.pids().add(s.process.pid());
  }

  /** SIGKILL, then a replacement (after {@code beforeStart}, e.g. setting its clock back). */
  void killAndReplace(int slot, IoAction beforeStart) throws IOException, InterruptedException {
    Slot s = slots[slot];
    synchronized (s) {
      s.harnessStopped = true;
      Process p = s.process;
      if (p != null && p.isAlive()) {
        p.destroyForcibly(); // SIGKILL
        p.waitFor(30, TimeUnit.SECONDS);
      }
      beforeStart.run();
      start(s);
    }
  }

  /** An action that may fail with an I/O error. */
  interface IoAction {
    void run() throws IOException;
  }

  /** SIGSTOP ({@code stop} true) or SIGCONT the slot's current worker. */
  void signal(int slot, boolean stop) throws InterruptedException {
    Slot s = slots[slot];
    synchronized (s) {
      if (s.process != null && s.process.isAlive()) {
        ServerProcess.run(
            List.of("kill", stop ? "-STOP" : "-CONT", Long.toString(s.process.pid())), 10);
      }
    }
  }

  private void supervise() {
    while (!stopping) {
      long now = System.nanoTime();
      for (Slot s : slots) {
        synchronized (s) {
          if (stopping) {
            return;
          }
          if (s.process != null && !s.process.isAlive() && !s.harnessStopped) {
            if (s.restartAt == Long.MAX_VALUE) {
              exits.add("w" + s.index + "-" + s.incarnation + " exited " + s.process.exitValue());
              System.out.printf(
                  "worker w%d-%d exited with code %d; its replacement starts in 1 s%n",
                  s.index, s.incarnation, s.process.exitValue());
              s.restartAt = now + TimeUnit.SECONDS.toNanos(1);
            } else if (now >= s.restartAt) {
              try {
                start(s);
              } catch (IOException e) {
                System.out.println("could not start a worker for slot " + s.index + ": " + e);
              }
            }
          }
        }
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Workers that exited on their own (not by a fault), for the report. */
  synchronized List<String> exits() {
    return List.copyOf(exits);
  }

  /**
   * Stops every worker gracefully: SIGCONT, close its standard input (it releases its lease and
   * exits), SIGKILL what is still running after 30 s.
   */
  @Override
  public void close() {
    stopping = true;
    supervisor.interrupt();
    for (Slot s : slots) {
      synchronized (s) {
        if (s.process != null && s.process.isAlive()) {
          try {
            ServerProcess.run(List.of("kill", "-CONT", Long.toString(s.process.pid())), 10);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          try {
            s.process.getOutputStream().close();
          } catch (IOException e) {
            // already gone
          }
        }
      }
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    for (Slot s : slots) {
      Process p = s.process;
      if (p == null) {
        continue;
      }
      try {
        if (!p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
          System.out.printf(
              "worker of slot %d did not stop within 30 s: thread dump (SIGQUIT) to its log,"
                  + " then SIGKILL%n",
              s.index);
          ServerProcess.run(List.of("kill", "-QUIT", Long.toString(p.pid())), 10);
          p.waitFor(2, TimeUnit.SECONDS);
          p.destroyForcibly();
          p.waitFor(10, TimeUnit.SECONDS);
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
