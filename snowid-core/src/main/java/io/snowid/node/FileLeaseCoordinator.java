package io.snowid.node;

import io.snowid.InvalidSettingException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Leases on one host through OS file locks: {@code DIR/<namespace>/<id>.lease}, locked while held.
 * A process that dies, even by SIGKILL, drops its locks, so its ids become free at once; the file
 * keeps the high-water mark so the next holder starts after everything the dead one might have
 * issued. The coordinator has no clock of its own: it uses the holder's.
 */
final class FileLeaseCoordinator implements LeaseCoordinator {
  /*
   * The lock is the lease: mutual exclusion between processes comes from the kernel, between
   * threads of one JVM from OverlappingFileLockException (the JVM refuses a second lock on a file
   * it already locks). Expiry therefore never hands out a held id; `expiresAt` is recorded only
   * for the contract's shape. Every write is forced to disk before the call returns, so a power
   * cut cannot lose a high-water mark that a holder was told is recorded.
   *
   * A record is rewritten in place as one fixed-size write, never truncated first: a process
   * killed mid-write leaves the old record or the new one, not an empty file that would forget
   * the high-water mark. A record that cannot be read is never guessed at: its id is skipped.
   *
   * The locks are POSIX record locks, owned by the process: closing ANY descriptor of a file drops
   * every lock the process has on it, even one taken through another channel. So this JVM never
   * opens a lease file that it may hold: OPEN_HERE (JVM-wide, by real path) claims a file before
   * any open or read, and tryTake and previousId skip files that are claimed.
   */
  private static final Set<Path> OPEN_HERE = ConcurrentHashMap.newKeySet();
  private static final System.Logger LOG = System.getLogger("io.snowid.node");
  private static final int RECORD = 256;

  private final Path dir;
  private final Map<String, Held> held = new ConcurrentHashMap<>();

  private record Held(FileChannel channel, FileLock lock, Path path) {}

  FileLeaseCoordinator(Path dir) {
    this.dir = dir;
  }

  static FileLeaseCoordinator open(String base) {
    if (base.indexOf('?') >= 0) {
      throw new InvalidSettingException(
          "node", base, "file:DIR with the options " + LeaseOptions.KEYS + " only");
    }
    String raw = base.substring("file:".length());
    if (raw.startsWith("//")) {
      raw = raw.substring(2);
    }
    if (raw.isBlank()) {
      throw new InvalidSettingException("node", base, "file:DIR with a directory");
    }
    Path dir = Paths.get(raw).toAbsolutePath().normalize();
    try {
      Files.createDirectories(dir);
      dir = dir.toRealPath(); // one key per file in OPEN_HERE, however the directory was named
    } catch (IOException e) {
      throw new NodeIdUnavailableException("cannot create lease directory " + dir + ": " + e);
    }
    return new FileLeaseCoordinator(dir);
  }

  @Override
  public Lease acquire(
      String namespace,
      long size,
      String instance,
      Duration ttl,
      long localNowMillis,
      long mayIssueUntilMillis) {
    Path nsDir = dir.resolve(namespace);
    try {
      Files.createDirectories(nsDir);
      Long preferred = previousId(nsDir, instance, size);
      if (preferred != null) {
        Lease l =
            tryTake(
                nsDir, namespace, preferred, instance, ttl, localNowMillis, mayIssueUntilMillis);
        if (l != null) {
          return l;
        }
      }
      for (long id = 0; id < size; id++) {
        Lease l = tryTake(nsDir, namespace, id, instance, ttl, localNowMillis, mayIssueUntilMillis);
        if (l != null) {
          return l;
        }
      }
    } catch (IOException e) {
      throw new NodeIdUnavailableException("lease directory " + nsDir + " failed: " + e);
    }
    throw new NodeIdUnavailableException(
        "all " + size + " node ids of namespace " + namespace + " in " + dir + " are held");
  }

  private static Long previousId(Path nsDir, String instance, long size) throws IOException {
    try (DirectoryStream<Path> files = Files.newDirectoryStream(nsDir, "*.lease")) {
      for (Path f : files) {
        String name = f.getFileName().toString();
        if (!OPEN_HERE.add(f)) {
          continue; // open in this JVM: held here, and reading it would drop the lock
        }
        Properties p = new Properties();
        try {
          p.load(new java.io.StringReader(Files.readString(f, StandardCharsets.UTF_8)));
        } catch (IOException | IllegalArgumentException e) {
          continue; // unreadable while another process writes it: not ours to prefer
        } finally {
          OPEN_HERE.remove(f);
        }
        if (instance.equals(p.getProperty("instance"))) {
          try {
            long id = Long.parseLong(name.substring(0, name.length() - ".lease".length()));
            if (id >= 0 && id < size) {
              return id;
            }
          } catch (NumberFormatException e) {
            // not a lease file of ours
          }
        }
      }
    }
    return null;
  }

  private Lease tryTake(
      Path nsDir,
      String namespace,
      long id,
      String instance,
      Duration ttl,
      long now,
      long mayIssueUntil)
      throws IOException {
    Path path = nsDir.resolve(id + ".lease");
    if (!OPEN_HERE.add(path)) {
      return null; // held (or being probed) in this JVM: opening it again could drop the lock
    }
    FileChannel ch = null;
    boolean taken = false;
    try {
      ch =
          FileChannel.open(
              path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = ch.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        return null;
      }
      long highWater;
      try {
        highWater = number(read(ch), "highWater");
      } catch (IllegalArgumentException e) {
        LOG.log(
            System.Logger.Level.WARNING,
            "skipping node id " + id + ": unreadable lease file " + path + " (" + e + ")");
        return null;
      }
      String token = UUID.randomUUID().toString();
      write(
          ch, instance, token, highWater, Math.max(highWater, mayIssueUntil), now + ttl.toMillis());
      held.put(token, new Held(ch, lock, path));
      taken = true;
      return new Lease(namespace, id, instance, token, now, now + ttl.toMillis(), highWater);
    } finally {
      if (!taken) {
        try {
          if (ch != null) {
            ch.close();
          }
        } finally {
          OPEN_HERE.remove(path);
        }
      }
    }
  }

  @Override
  public Lease renew(Lease lease, Duration ttl, long localNowMillis, long mayIssueUntilMillis) {
    Held h = held.get(lease.token());
    if (h == null || !h.lock().isValid()) {
      throw new LeaseTakenException(lease.namespace(), lease.nodeId(), "released");
    }
    try {
      Properties p = read(h.channel());
      long expires = localNowMillis + ttl.toMillis();
      long highWater = Math.max(number(p, "highWater"), mayIssueUntilMillis);
      write(h.channel(), lease.instance(), lease.token(), number(p, "base"), highWater, expires);
      return new Lease(
          lease.namespace(),
          lease.nodeId(),
          lease.instance(),
          lease.token(),
          localNowMillis,
          expires,
          lease.highWaterMillis());
    } catch (IOException e) {
      throw new NodeIdUnavailableException("cannot write " + h.path() + ": " + e);
    }
  }

  @Override
  public void release(Lease lease, long issuedUpToMillis) {
    Held h = held.remove(lease.token());
    if (h == null) {
      return;
    }
    try (FileChannel ch = h.channel()) {
      if (h.lock().isValid()) {
        // A holder that releases is fenced and knows exactly what it issued: that replaces its
        // own promises, so a graceful restart does not wait out the promised deadline.
        long base = number(read(ch), "base");
        long highWater = Math.max(base, issuedUpToMillis);
        write(ch, lease.instance(), "", highWater, highWater, Long.MIN_VALUE);
        h.lock().release();
      }
    } catch (IOException e) {
      throw new NodeIdUnavailableException("cannot write " + h.path() + ": " + e);
    } finally {
      OPEN_HERE.remove(h.path());
    }
  }

  /**
   * Reads a record; an empty file is a new id.
   *
   * @throws IllegalArgumentException if the record is damaged (its checksum does not match)
   */
  private static Properties read(FileChannel ch) throws IOException {
    ByteBuffer buf = ByteBuffer.allocate((int) Math.min(ch.size(), 4096));
    ch.read(buf, 0);
    String text = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
    Properties p = new Properties();
    p.load(new java.io.StringReader(text));
    int crcAt = text.indexOf("crc=");
    if (crcAt >= 0) {
      java.util.zip.CRC32 crc = new java.util.zip.CRC32();
      crc.update(text.substring(0, crcAt).getBytes(StandardCharsets.UTF_8));
      if (!Long.toString(crc.getValue()).equals(p.getProperty("crc"))) {
        throw new IllegalArgumentException("checksum mismatch");
      }
    } else if (!text.isBlank()) {
      throw new IllegalArgumentException("no checksum");
    }
    return p;
  }

  private static long number(Properties p, String key) {
    return Long.parseLong(p.getProperty(key, Long.toString(Long.MIN_VALUE)));
  }

  /**
   * Writes the lease file: {@code base} is the high-water mark left by previous holders, {@code
   * highWater} also covers what the current holder promised it might issue.
   */
  private static void write(
      FileChannel ch, String instance, String token, long base, long highWater, long expires)
      throws IOException {
    String text =
        String.format(
            "instance=%s%ntoken=%s%nbase=%d%nhighWater=%d%nexpiresAt=%d%n",
            instance, token, base, highWater, expires);
    java.util.zip.CRC32 crc = new java.util.zip.CRC32();
    crc.update(text.getBytes(StandardCharsets.UTF_8));
    StringBuilder record =
        new StringBuilder(text).append("crc=").append(crc.getValue()).append("\n#");
    while (record.length() < RECORD - 1) {
      record.append(' ');
    }
    byte[] bytes = record.append('\n').toString().getBytes(StandardCharsets.UTF_8);
    if (bytes.length != RECORD) {
      throw new IOException("lease record of " + bytes.length + " bytes: instance name too long");
    }
    ByteBuffer buf = ByteBuffer.wrap(bytes);
    while (buf.hasRemaining()) {
      ch.write(buf, buf.position());
    }
    if (ch.size() > RECORD) {
      ch.truncate(RECORD); // a record of an older, longer format: drop its tail, after the write
    }
    ch.force(true);
  }

  @Override
  public String describe() {
    return "file:" + dir;
  }

  @Override
  public void close() {
    for (String token : List.copyOf(held.keySet())) {
      Held h = held.remove(token);
      if (h != null) {
        try {
          h.channel().close();
        } catch (IOException e) {
          // closing drops the lock; nothing else to do
        } finally {
          OPEN_HERE.remove(h.path());
        }
      }
    }
  }
}
