package io.snowid.torture;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.zip.CRC32;

/**
 * A {@code file:} lease directory of the run's own, watched: a thread reads every lease record
 * every few milliseconds, so the holds come from the records themselves, not from the workers.
 */
final class FileRegistry implements Registry {
  /*
   * The records carry no time of the registry (file: has no clock of its own; expiry is in the
   * holders' clocks, which libfaketime moves), so a hold is bounded by the polls that saw it: a
   * record naming a holder was written after the last poll that still saw the record before it,
   * and replaced before the first poll that saw the next. A hold therefore spans from the start of
   * the last poll that saw the previous record to the end of the poll that saw its successor: an
   * over-estimate by at most one poll (a few ms) at each end, never an under-estimate, so a
   * violation reported is a real one. A read that fails its checksum (a write in progress) is
   * ignored; the next poll settles it.
   */
  private static final long POLL_MILLIS = 5;

  private final Path dir;
  private final String options;
  private final Thread poller;
  private final Map<Path, FileState> files = new HashMap<>();
  private final List<Hold> holds = new ArrayList<>();
  private volatile boolean closed;
  private long polls;
  private long lastPollStart;

  /** What one lease file showed last. */
  private static final class FileState {
    final String namespace;
    final long nodeKey;
    String instance = ""; // "" when released or absent
    String token = "";
    long highWater = Long.MIN_VALUE; // the highest mark seen in the current record
    long since; // the hold's lower bound
    long lastSeenBefore; // the start of the last poll that saw the current record

    FileState(String namespace, long nodeKey, long pollStart) {
      this.namespace = namespace;
      this.nodeKey = nodeKey;
      this.since = pollStart;
      this.lastSeenBefore = pollStart;
    }
  }

  FileRegistry(Path dir, String options) throws IOException {
    this.dir = dir;
    this.options = options;
    Files.createDirectories(dir);
    poll(); // before any worker starts
    this.poller = new Thread(this::run, "file registry poller");
    poller.setDaemon(true);
    poller.start();
  }

  @Override
  public String name() {
    return "file";
  }

  @Override
  public InetSocketAddress endpoint() {
    return null;
  }

  @Override
  public String uri(InetSocketAddress via, String instance) {
    return "file:" + dir + "?" + options + "&instance=" + instance;
  }

  @Override
  public boolean restartable() {
    return false;
  }

  @Override
  public void restart(long downMillis) {
    throw new UnsupportedOperationException("a lease directory has no server to restart");
  }

  @Override
  public Snapshot snapshot() {
    throw new UnsupportedOperationException("a lease directory has no server to roll back");
  }

  @Override
  public void rollback(Snapshot snapshot) {
    throw new UnsupportedOperationException("a lease directory has no server to roll back");
  }

  private void run() {
    while (!closed) {
      try {
        poll();
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      } catch (IOException | UncheckedIOException e) {
        // the directory is being created or changed: the next poll reads it
      }
    }
  }

  private synchronized void poll() throws IOException {
    long before = Timeline.monoMicros();
    List<Path> leaseFiles = new ArrayList<>();
    if (Files.isDirectory(dir)) {
      try (DirectoryStream<Path> namespaces = Files.newDirectoryStream(dir)) {
        for (Path ns : namespaces) {
          if (!Files.isDirectory(ns)) {
            continue;
          }
          try (DirectoryStream<Path> leases = Files.newDirectoryStream(ns, "*.lease")) {
            leases.forEach(leaseFiles::add);
          }
        }
      }
    }
    Map<Path, String[]> seen = new HashMap<>();
    for (Path f : leaseFiles) {
      String[] holder = read(f);
      if (holder != null) {
        seen.put(f, holder);
      }
    }
    long after = Timeline.monoMicros();
    for (Map.Entry<Path, String[]> e : seen.entrySet()) {
      FileState s =
          files.computeIfAbsent(
              e.getKey(),
              p ->
                  new FileState(
                      p.getParent().getFileName().toString(),
                      nodeKeyOf(p),
                      polls == 0 ? before : lastPollStart));
      String instance = e.getValue()[0];
      String token = e.getValue()[1];
      long highWater = Long.parseLong(e.getValue()[2]);
      if (s.token.equals(token) && s.instance.equals(instance)) {
        s.lastSeenBefore = before;
        s.highWater = Math.max(s.highWater, highWater);
        continue;
      }
      if (!s.token.isEmpty()) {
        holds.add(new Hold(s.instance, s.namespace, s.nodeKey, s.since, after, s.highWater));
      }
      s.highWater = highWater;
      s.since = s.lastSeenBefore;
      s.instance = token.isEmpty() ? "" : instance;
      s.token = token;
      s.lastSeenBefore = before;
    }
    lastPollStart = before;
    polls++;
  }

  private static long nodeKeyOf(Path leaseFile) {
    String name = leaseFile.getFileName().toString();
    return Long.parseLong(name.substring(0, name.length() - ".lease".length()));
  }

  /**
   * The record's {instance, token, highWater} (token "" when released), or null when it cannot be
   * read now (absent, empty, or a checksum that does not match: a write in progress).
   */
  static String[] read(Path leaseFile) throws IOException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(leaseFile);
    } catch (NoSuchFileException e) {
      return null;
    }
    String text = new String(bytes, StandardCharsets.UTF_8);
    int crcAt = text.indexOf("\ncrc=");
    if (text.isBlank() || crcAt < 0) {
      return null;
    }
    Properties p = new Properties();
    try {
      p.load(new StringReader(text));
    } catch (IllegalArgumentException e) {
      return null;
    }
    CRC32 crc = new CRC32();
    crc.update(text.substring(0, crcAt + 1).getBytes(StandardCharsets.UTF_8));
    if (!Long.toString(crc.getValue()).equals(p.getProperty("crc"))) {
      return null;
    }
    return new String[] {
      p.getProperty("instance", ""),
      p.getProperty("token", ""),
      p.getProperty("highWater", Long.toString(Long.MIN_VALUE)).trim()
    };
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    poller.interrupt();
    try {
      poller.join(5_000);
      poll();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // the holds end at the last poll that worked
    }
  }

  @Override
  public List<Hold> stopAndReadHolds(Timeline timeline) {
    close();
    return holds();
  }

  private synchronized List<Hold> holds() {
    List<Hold> all = new ArrayList<>(holds);
    for (FileState s : files.values()) {
      if (!s.token.isEmpty()) {
        all.add(new Hold(s.instance, s.namespace, s.nodeKey, s.since, Long.MAX_VALUE, s.highWater));
      }
    }
    return all;
  }

  @Override
  public String holdsSource() {
    return "the lease records, read every " + POLL_MILLIS + " ms (" + polls + " polls)";
  }
}
