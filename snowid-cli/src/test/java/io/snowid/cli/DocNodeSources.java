package io.snowid.cli;

import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the generators of a Java example take their node values from, read from its code (comments
 * left out). Two sources in one program can each hand out the same node values — a lease directory
 * and another, two directories, a lease and a static value — and the program then issues the same
 * IDs twice; so an example uses one.
 */
final class DocNodeSources {
  static final String FACADE = "SnowId's (snowid.node, else this host's lease directory)";

  private static final Pattern FACADE_CALL =
      Pattern.compile("\\bSnowId\\s*\\.\\s*(next|nextString|nextJs53|generator|decode)\\b");
  private static final Pattern SOURCE =
      Pattern.compile("(?:\\.nodeSource|\\bfromNodeSource)\\s*\\(\\s*([^)]*?)\\s*\\)");
  private static final Pattern EXPLICIT = Pattern.compile("\\.node\\s*\\(");
  private static final Pattern LEASE = Pattern.compile("\\.lease\\s*\\(");

  private DocNodeSources() {}

  /** The node sources {@code java} uses, each named once. */
  static Set<String> of(String java) {
    String code = withoutComments(java);
    Set<String> sources = new LinkedHashSet<>();
    if (FACADE_CALL.matcher(code).find()) {
      sources.add(FACADE);
    }
    Matcher m = SOURCE.matcher(code);
    while (m.find()) {
      sources.add(m.group(1));
    }
    if (EXPLICIT.matcher(code).find()) {
      sources.add("explicit .node(…) values");
    }
    if (LEASE.matcher(code).find()) {
      sources.add("a .lease(…)");
    }
    return sources;
  }

  /** {@code java} without its {@code //} and {@code /* *}{@code /} comments. */
  static String withoutComments(String java) {
    StringBuilder out = new StringBuilder(java.length());
    int i = 0;
    while (i < java.length()) {
      char c = java.charAt(i);
      if (c == '"' || c == '\'') {
        int end = i + 1;
        while (end < java.length() && java.charAt(end) != c && java.charAt(end) != '\n') {
          end += java.charAt(end) == '\\' ? 2 : 1;
        }
        end = Math.min(end + 1, java.length());
        out.append(java, i, end);
        i = end;
      } else if (java.startsWith("//", i)) {
        int end = java.indexOf('\n', i);
        i = end < 0 ? java.length() : end;
      } else if (java.startsWith("/*", i)) {
        int end = java.indexOf("*/", i + 2);
        i = end < 0 ? java.length() : end + 2;
        out.append(' ');
      } else {
        out.append(c);
        i++;
      }
    }
    return out.toString();
  }
}
