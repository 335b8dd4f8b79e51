package io.snowid.lease;

import io.snowid.node.NodeIdUnavailableException;
import java.nio.file.Path;

/**
 * A {@code file:} lease directory cannot be used safely: it cannot be created, or another user
 * could delete or replace its lease files. The message is one sentence: {@code lease directory
 * <directory> refused: <problem>; <fix>}, where the problem names the path component at fault (the
 * directory itself, a folder or symbolic link on its path, or a namespace folder) and why.
 */
public class LeaseDirectoryException extends NodeIdUnavailableException {
  private static final long serialVersionUID = 1L;

  private final transient Path directory;
  private final transient Path path;
  private final String problem;
  private final String fix;

  /**
   * @param directory the lease directory that was asked for
   * @param path the component of its path at fault (the directory itself, a folder or symbolic link
   *     on its path, or one of its namespace folders)
   * @param problem what is wrong, naming that component (e.g. {@code "the folder /srv on its path
   *     is owned by uid 1001, …"})
   * @param fix what to do about it
   */
  public LeaseDirectoryException(Path directory, Path path, String problem, String fix) {
    super("lease directory " + directory + " refused: " + problem + "; " + fix);
    this.directory = directory;
    this.path = path;
    this.problem = problem;
    this.fix = fix;
  }

  /** A problem with the directory itself, {@code path}. */
  public LeaseDirectoryException(Path path, String problem, String fix) {
    this(path, path, problem, fix);
  }

  /** The lease directory that was asked for, as given (made absolute). */
  public Path directory() {
    return directory;
  }

  /** The component at fault: the directory itself, a folder or link on its path, or a namespace. */
  public Path path() {
    return path;
  }

  /** What is wrong with it. */
  public String problem() {
    return problem;
  }

  /** What to do about it. */
  public String fix() {
    return fix;
  }
}
