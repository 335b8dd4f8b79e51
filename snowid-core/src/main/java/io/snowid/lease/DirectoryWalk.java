package io.snowid.lease;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.UUID;

/**
 * The walk down the path of one lease directory, one component at a time from the root, as the
 * kernel resolves it ({@code ..} after a symbolic link goes to the parent of the link's target):
 * each component is checked ({@link FolderRules}) before anything below it is used or created, and
 * a missing folder is created, then checked like any existing one.
 */
final class DirectoryWalk {
  /** The most symbolic links a path may lead through: more is taken for a loop. */
  static final int MAX_LINKS = 40;

  private static final int MAX_ATTEMPTS = 3;
  private static final FileAttribute<?> MODE_0755 =
      PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x"));

  private final Path requested;
  private final FolderRules rules;

  /** The names still to walk, next first. */
  private final Deque<String> names = new ArrayDeque<>();

  /** The real path walked so far: a directory that passed, as did every folder above it. */
  private Path current;

  /** What {@link #current} is. */
  private FolderStat currentStat;

  private int links;

  /**
   * @param requested the directory to walk to, absolute
   * @param files what the directory holds, in a refusal
   */
  DirectoryWalk(Path requested, String files) {
    this.requested = requested;
    this.rules = new FolderRules(requested, files);
  }

  /** Walks to the directory, creating what is missing; its real path. */
  Path run() {
    current = requested.getRoot();
    pushFront(requested);
    FolderStat root = stat(current, role());
    if (root == null || !root.isDirectory()) {
      throw rules.rootNotADirectory(current);
    }
    rules.checkDirectory(current, root, role());
    currentStat = root;
    while (!names.isEmpty()) {
      String name = names.removeFirst();
      if (name.equals("..")) {
        if (current.getParent() != null) {
          current = current.getParent(); // a real path: its parent is the physical one
          currentStat = stat(current, FolderRole.ABOVE);
        }
        continue;
      }
      step(current.resolve(name));
    }
    return current;
  }

  /**
   * Checks the namespace folder {@code ns} directly inside the opened lease directory this walk was
   * made for, creating it if missing; never follows a symbolic link.
   */
  Path namespace(Path ns) {
    rules.insideLeaseDirectory(stat(requested, FolderRole.DIRECTORY));
    for (int attempt = 1; ; attempt++) {
      FolderStat s = stat(ns, FolderRole.NAMESPACE);
      if (s != null) {
        if (!s.isDirectory()) {
          throw rules.notADirectory(ns, s, FolderRole.NAMESPACE);
        }
        rules.checkDirectory(ns, s, FolderRole.NAMESPACE);
        return ns;
      }
      create(ns, FolderRole.NAMESPACE, attempt);
    }
  }

  /** The role of the component about to be walked: the directory when no name follows it. */
  private FolderRole role() {
    return names.isEmpty() ? FolderRole.DIRECTORY : FolderRole.ABOVE;
  }

  private void pushFront(Path path) {
    List<String> parts = new ArrayList<>();
    for (Path name : path) {
      String s = name.toString();
      if (!s.isEmpty() && !s.equals(".")) {
        parts.add(s);
      }
    }
    for (int i = parts.size() - 1; i >= 0; i--) {
      names.addFirst(parts.get(i));
    }
  }

  private void step(Path next) {
    FolderRole role = role();
    for (int attempt = 1; ; attempt++) {
      FolderStat s = stat(next, role);
      if (s == null) {
        create(next, role, attempt);
        continue;
      }
      if (s.isLink()) {
        follow(next, s, role);
      } else if (s.isDirectory()) {
        rules.checkDirectory(next, s, role);
        current = next;
        currentStat = s;
      } else {
        throw rules.notADirectory(next, s, role);
      }
      return;
    }
  }

  private void follow(Path link, FolderStat s, FolderRole role) {
    if (!rules.trusted(s.uid())) {
      throw rules.linkOwnedByAnother(link, s, role);
    }
    if (++links > MAX_LINKS) {
      throw rules.tooManyLinks(link, MAX_LINKS);
    }
    Path target;
    try {
      target = Files.readSymbolicLink(link);
    } catch (IOException e) {
      throw rules.cannotRead(link, role, e);
    }
    if (target.isAbsolute()) {
      current = target.getRoot(); // checked when the walk began
      currentStat = stat(current, FolderRole.ABOVE);
    }
    pushFront(target); // a relative target is walked from the link's folder, `current`
  }

  /**
   * Creates a missing folder, with the mode {@link FolderRules#modeOfNew} gives it, set before it
   * appears at its path so the umask does not narrow it; its caller then checks it like any
   * existing one.
   */
  private void create(Path p, FolderRole role, int attempt) {
    if (attempt > MAX_ATTEMPTS) {
      throw rules.disappeared(p, role);
    }
    int mode = rules.modeOfNew(role, currentStat);
    try {
      if (mode == 0) {
        Files.createDirectory(p, MODE_0755);
      } else {
        createShared(p, mode);
      }
    } catch (FileAlreadyExistsException e) {
      // created meanwhile by another process: checked like any existing one
    } catch (IOException e) {
      throw rules.cannotCreate(p, role, e);
    }
  }

  /**
   * Creates a shared folder with its final mode at once: made under a temporary name, given its
   * mode, then renamed into place. So no process ever sees it with the umask's mode, which another
   * user would be refused (it could not write to it). The loser of a race to create it uses the
   * winner's. A rename replaces an empty folder: then the winner's, still empty, is replaced by one
   * of the same mode that the winner's next check finds as shared.
   */
  private static void createShared(Path p, int mode) throws IOException {
    Path temp = p.resolveSibling("." + p.getFileName() + "." + UUID.randomUUID() + ".new");
    Files.createDirectory(temp, MODE_0755);
    try {
      Files.setAttribute(temp, "unix:mode", mode, LinkOption.NOFOLLOW_LINKS);
      Files.move(temp, p, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
        throw e;
      }
      // created meanwhile by another process: checked like any existing one
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  /** The owner and mode of a path, or null if it does not exist. */
  private FolderStat stat(Path p, FolderRole role) {
    try {
      return FolderStat.of(p);
    } catch (IOException e) {
      throw rules.cannotRead(p, role, e);
    }
  }
}
