package io.snowid.lease;

/**
 * Where a path stands in a lease directory's check: it names it in a refusal and chooses the fix.
 */
enum FolderRole {
  /** The lease directory itself (the last component of its path). */
  DIRECTORY,
  /** A folder or link on the path to it. */
  ABOVE,
  /** A namespace folder inside an opened lease directory. */
  NAMESPACE
}
