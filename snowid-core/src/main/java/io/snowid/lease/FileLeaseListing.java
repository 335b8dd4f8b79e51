package io.snowid.lease;

import io.snowid.InvalidSettingException;
import io.snowid.node.NodeIdUnavailableException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * What a {@code file:} lease directory shows operators ({@code snowid leases}): its namespaces, the
 * state of every id of one, and the release of an id whose holder is provably gone, judged as an
 * acquisition judges it; nothing else is changed (docs/design.md, "Operators: listing and
 * releasing").
 */
final class FileLeaseListing {
  private static final System.Logger LOG = System.getLogger("io.snowid.lease");

  private final Path dir;

  /**
   * @param dir the lease directory, opened ({@link LeaseDirectory#open})
   */
  FileLeaseListing(Path dir) {
    this.dir = dir;
  }

  /** The namespace folders of the lease directory, sorted; nothing is created. */
  List<String> namespaces() {
    List<String> out = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
      for (Path p : entries) {
        String name = p.getFileName().toString();
        if (LeaseNames.isListed(name) && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          out.add(name);
        }
      }
    } catch (IOException e) {
      throw new NodeIdUnavailableException("lease directory " + dir + " cannot be listed: " + e);
    }
    Collections.sort(out);
    return out;
  }

  LeaseListing list(String namespace) {
    long now = System.currentTimeMillis();
    Path nsDir = existingNamespace(namespace);
    if (nsDir == null) {
      return new LeaseListing(now, List.of());
    }
    List<LeaseInfo> out = new ArrayList<>();
    try {
      for (long id : LeaseFiles.existingIds(nsDir)) {
        LeaseInfo info = inspect(namespace, LeaseFiles.path(nsDir, id), id, now);
        if (info != null) {
          out.add(info);
        }
      }
    } catch (IOException e) {
      throw new NodeIdUnavailableException("lease directory " + nsDir + " failed: " + e);
    }
    NamespaceMarks.Marks newest =
        NamespaceMarks.readAll(dir, namespace, System.currentTimeMillis()).newest();
    return new LeaseListing(
        now,
        out,
        newest == null
            ? Optional.empty()
            : Optional.of(
                new NamespaceState(newest.limits(), newest.writtenMillis(), Long.MIN_VALUE)));
  }

  /** The namespace folder, checked, if it exists; null if not (nothing is created). */
  private Path existingNamespace(String namespace) {
    if (!LeaseNames.isFolderName(dir, namespace)) {
      throw new InvalidSettingException(
          "namespace",
          namespace,
          "a folder name of " + LeaseNames.CHARACTERS + " other than . and ..");
    }
    if (!Files.isDirectory(dir.resolve(namespace), LinkOption.NOFOLLOW_LINKS)) {
      return null;
    }
    return LeaseDirectory.namespace(dir, namespace); // exists: checked, not created
  }

  /**
   * One lease file's state, without changing it: held in this JVM (from memory), locked by another
   * process, or judged by its record as an acquirer would. Null for a file with no readable record
   * (being created, emptied or damaged: the next acquirer takes it after one lease time).
   */
  private static LeaseInfo inspect(String namespace, Path path, long id, long now)
      throws IOException {
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return null;
    }
    if (!a.isRegularFile()) {
      return null;
    }
    String key = LockedFile.keyOf(a, path);
    HeldLease h = HeldLease.heldHere(key);
    if (h != null) {
      synchronized (h) {
        return info(namespace, id, h.record, LeaseInfo.State.HELD);
      }
    }
    if (!ProcessFileClaims.claim(key, path.toString())) {
      // held (or being probed) by another copy of snowid in this JVM: opening it could drop its
      // lock, and its record is not ours to read from memory
      return heldByAnotherCopy(namespace, id);
    }
    try (FileChannel ch =
        FileChannel.open(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
      LeaseRecord r;
      boolean locked;
      // a shared lock for a moment: refused while a holder has its exclusive one
      try (FileLock probe = ch.tryLock(0, Long.MAX_VALUE, true)) {
        locked = probe == null;
        r = LeaseFiles.read(ch);
      } catch (LeaseRecord.DamagedException e) {
        return null;
      } catch (OverlappingFileLockException e) {
        return heldByAnotherCopy(namespace, id); // locked in this JVM by code that does not claim
      }
      if (r == null) {
        return null;
      }
      return info(namespace, id, r, locked ? LeaseInfo.State.HELD : stateOf(r, now));
    } catch (NoSuchFileException | AccessDeniedException e) {
      return null;
    } finally {
      ProcessFileClaims.release(key, path.toString());
    }
  }

  /** An id held in this JVM by a copy of snowid whose record cannot be read: expiry unknown. */
  private static LeaseInfo heldByAnotherCopy(String namespace, long id) {
    return new LeaseInfo(
        namespace,
        id,
        "(another copy of snowid in this process)",
        HolderProcess.host(),
        LeaseInfo.State.HELD,
        Long.MAX_VALUE,
        Long.MIN_VALUE);
  }

  /** The state of a record whose file no one has locked, as an acquirer would judge it. */
  private static LeaseInfo.State stateOf(LeaseRecord r, long now) {
    if (r.isReleased()) {
      return LeaseInfo.State.RELEASED;
    }
    return isGone(r, now) ? LeaseInfo.State.EXPIRED : LeaseInfo.State.HELD;
  }

  /** Whether the holder a record names can no longer issue: provably gone, or its lease expired. */
  private static boolean isGone(LeaseRecord r, long now) {
    return HolderProcess.ofHolder(r) == HolderProcess.Liveness.DEAD || now > r.expiresAt();
  }

  private static LeaseInfo info(String namespace, long id, LeaseRecord r, LeaseInfo.State state) {
    return new LeaseInfo(
        namespace,
        id,
        r.instance(),
        r.host(),
        state,
        r.isReleased() ? Long.MIN_VALUE : r.expiresAt(),
        r.highWater());
  }

  void releaseAbandoned(String namespace, long nodeId) {
    Path nsDir = existingNamespace(namespace);
    if (nsDir == null || nodeId < 0) {
      return;
    }
    Path path = LeaseFiles.path(nsDir, nodeId);
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    } catch (NoSuchFileException e) {
      return;
    } catch (IOException e) {
      throw new NodeIdUnavailableException("cannot read " + path + ": " + e);
    }
    if (!a.isRegularFile()) {
      return;
    }
    String key = LockedFile.keyOf(a, path);
    HeldLease mine = HeldLease.heldHere(key);
    if (mine != null) {
      synchronized (mine) {
        throw new LeaseTakenException(
            namespace, nodeId, "held by this process: " + who(mine.record));
      }
    }
    if (!ProcessFileClaims.claim(key, path.toString())) {
      throw new LeaseTakenException(
          namespace, nodeId, "held by another copy of snowid in this process");
    }
    FileChannel ch = null;
    try {
      ch =
          FileChannel.open(
              path, StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
      releaseIfGone(namespace, nodeId, path, ch);
    } catch (NoSuchFileException e) {
      // gone meanwhile: nothing to release
    } catch (IOException e) {
      throw new NodeIdUnavailableException("cannot release " + path + ": " + e);
    } finally {
      try {
        if (ch != null) {
          ch.close();
        }
      } catch (IOException e) {
        // closing drops the lock; nothing else to do
      } finally {
        ProcessFileClaims.release(key, path.toString());
      }
    }
  }

  /** With the file open: takes its lock, and writes it released if its holder is gone. */
  private static void releaseIfGone(String namespace, long nodeId, Path path, FileChannel ch)
      throws IOException {
    FileLock taken;
    try {
      taken = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      throw new LeaseTakenException(namespace, nodeId, "its lease file is locked in this process");
    }
    try (FileLock lock = taken) {
      if (lock == null) {
        LeaseRecord r = LeaseFiles.readQuietly(ch);
        throw new LeaseTakenException(
            namespace,
            nodeId,
            "its lease file is locked by a live process" + (r == null ? "" : ": " + who(r)));
      }
      LeaseRecord r = LeaseFiles.readQuietly(ch);
      long now = System.currentTimeMillis();
      if (r == null || r.isReleased()) {
        return; // nothing to keep, or released already: the next acquirer knows what to do
      }
      if (!isGone(r, now)) {
        throw new LeaseTakenException(
            namespace, nodeId, "its record names a holder that may be alive: " + who(r));
      }
      if (!LeaseFiles.writtenBySnowid(path, r)) {
        throw new LeaseTakenException(
            namespace,
            nodeId,
            "its lease file was changed by something other than snowid since its holder wrote it"
                + " (a copy, a restore, a move), so the holder it names cannot be proven gone; the"
                + " next holder takes the id after one lease time");
      }
      LeaseFiles.write(ch, r.released(r.highWater(), now));
      LOG.log(
          Level.INFO,
          "node id {0} of namespace {1} released by an operator: its holder is gone ({2}); its"
              + " high-water mark {3} is kept",
          LeaseFiles.str(nodeId),
          namespace,
          who(r),
          Instant.ofEpochMilli(r.highWater()));
    }
  }

  /** The holder a record names, and until when its lease runs, for messages. */
  private static String who(LeaseRecord r) {
    return "instance "
        + r.instance()
        + " (host "
        + r.host()
        + ", pid "
        + r.pid()
        + "), lease until "
        + Instant.ofEpochMilli(r.expiresAt());
  }
}
