package io.snowid.lease;

import io.snowid.node.NodeIdUnavailableException;
import java.nio.file.Path;

/**
 * A {@code file:} lease directory cannot be used safely: it cannot be created, or another user
 * could delete or replace its lease files. The message names the path, the problem and the fix.
 */
public class LeaseDirectoryException extends NodeIdUnavailableException {
  private static final long serialVersionUID = 1L;

  private final transient Path path;
  private final String problem;
  private final String fix;

  public LeaseDirectoryException(Path path, String problem, String fix) {
    super("lease directory " + path + " " + problem + ": " + fix);
    this.path = path;
    this.problem = problem;
    this.fix = fix;
  }

  /** The directory or folder that was refused. */
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
