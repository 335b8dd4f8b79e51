package io.snowid.lease;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The names a lease is given, in one place. The options take a namespace and an instance of 1 to
 * 100 of {@value #CHARACTERS}; a namespace key is such a namespace and the layout's ID space. A
 * {@code file:} lease directory keeps each namespace key in a folder of that name, so a key it is
 * given must name a folder directly inside it, and the folders it lists as namespaces are those
 * named with these characters that are not hidden (a folder being created has a hidden name).
 */
final class LeaseNames {
  /** The characters of every name, as messages give them. */
  static final String CHARACTERS = "A-Z a-z 0-9 . _ : -";

  /** A namespace or instance as the options take it. */
  static final Pattern OPTION = Pattern.compile("[A-Za-z0-9._:-]{1,100}");

  private static final Pattern LISTED = Pattern.compile("[A-Za-z0-9_:-][A-Za-z0-9._:-]*");

  private LeaseNames() {}

  /** Whether a namespace key names a folder directly inside the lease directory {@code dir}. */
  static boolean isFolderName(Path dir, String namespace) {
    return !namespace.isEmpty()
        && !namespace.equals(".")
        && !namespace.equals("..")
        && !namespace.contains("/")
        && !namespace.contains(dir.getFileSystem().getSeparator());
  }

  /** Whether a folder of a lease directory is listed as a namespace. */
  static boolean isListed(String folderName) {
    return LISTED.matcher(folderName).matches();
  }
}
