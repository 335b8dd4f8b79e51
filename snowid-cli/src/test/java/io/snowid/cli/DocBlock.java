package io.snowid.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One fenced code block of a Markdown file, with the markers written on the lines just before its
 * fence (see {@link DocExamplesTest} for the convention).
 *
 * @param file the file, as named in failures (relative to the repository)
 * @param line the 1-based line of the opening fence; the block's first line is {@code line + 1}
 * @param lang the fence's info string ({@code java}, {@code sh}, …; empty when none)
 * @param lines the block's lines, without the fence's indentation
 * @param illustrative why the block is not run, or null when it is run
 * @param rewrites {@code from -> to} pairs applied to the block's text before it runs
 * @param skips command prefixes of a shell block that are not run
 * @param givens Java statements placed before a Java block's statements
 * @param exits a shell command prefix and the exit code documented for it
 * @param problems markers that could not be read
 */
record DocBlock(
    String file,
    int line,
    String lang,
    List<String> lines,
    String illustrative,
    List<String[]> rewrites,
    List<String> skips,
    List<String> givens,
    List<Exit> exits,
    List<String> problems) {

  /** A command documented to exit with {@code code}. */
  record Exit(String prefix, int code) {}

  private static final Pattern FENCE = Pattern.compile("^( *)```\\s*([\\w+-]*)\\s*$");
  private static final Pattern CLOSE = Pattern.compile("^ *```\\s*$");
  private static final Pattern MARKER =
      Pattern.compile("^ *<!--\\s*(illustrative|test)\\b\\s*(:?)(.*?)\\s*-->\\s*$");
  private static final Pattern REWRITE = Pattern.compile("^\"([^\"]+)\"\\s*->\\s*\"([^\"]*)\"$");
  private static final Pattern SKIP = Pattern.compile("^skip `([^`]+)`\\s+\\S.*$");
  private static final Pattern EXIT = Pattern.compile("^exit (\\d+): `([^`]+)`(.*)$");

  /** The Markdown line of the block's line {@code index} (0-based). */
  int lineOf(int index) {
    return line + 1 + index;
  }

  /** {@code FILE:LINE} of the block's line {@code index}. */
  String at(int index) {
    return file + ":" + lineOf(index);
  }

  /** The block's text with its rewrites applied, {@code {tmp}} replaced by {@code tmp}. */
  String text(Path tmp) {
    String text = String.join("\n", lines);
    for (String[] r : rewrites) {
      text = text.replace(r[0], r[1].replace("{tmp}", tmp.toString()));
    }
    return text;
  }

  /** Every fenced block of {@code file}, named relative to {@code repo}. */
  static List<DocBlock> parse(Path repo, Path file) throws IOException {
    String name = repo.relativize(file).toString();
    List<String> all = Files.readAllLines(file);
    List<DocBlock> blocks = new ArrayList<>();
    for (int i = 0; i < all.size(); i++) {
      Matcher open = FENCE.matcher(all.get(i));
      if (!open.matches()) {
        continue;
      }
      int indent = open.group(1).length();
      int end = i + 1;
      while (end < all.size() && !CLOSE.matcher(all.get(end)).matches()) {
        end++;
      }
      List<String> lines = new ArrayList<>();
      for (String l : all.subList(i + 1, Math.min(end, all.size()))) {
        int strip = 0;
        while (strip < indent && strip < l.length() && l.charAt(strip) == ' ') {
          strip++;
        }
        lines.add(l.substring(strip));
      }
      blocks.add(withMarkers(name, i + 1, open.group(2), lines, markers(all, i)));
      i = end;
    }
    return blocks;
  }

  /** The marker comments on the lines just before line {@code fence} (0-based), top down. */
  private static List<Matcher> markers(List<String> all, int fence) {
    List<Matcher> found = new ArrayList<>();
    for (int j = fence - 1; j >= 0; j--) {
      Matcher m = MARKER.matcher(all.get(j));
      if (!m.matches()) {
        break;
      }
      found.add(0, m);
    }
    return found;
  }

  private static DocBlock withMarkers(
      String file, int line, String lang, List<String> lines, List<Matcher> markers) {
    String illustrative = null;
    List<String[]> rewrites = new ArrayList<>();
    List<String> skips = new ArrayList<>();
    List<String> givens = new ArrayList<>();
    List<Exit> exits = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (Matcher m : markers) {
      String body = m.group(3).trim();
      if (m.group(1).equals("illustrative")) {
        if (body.isEmpty() || m.group(2).isEmpty()) {
          problems.add("<!-- illustrative --> needs its reason: <!-- illustrative: why -->");
        }
        illustrative = body;
        continue;
      }
      Matcher rewrite = REWRITE.matcher(body);
      Matcher skip = SKIP.matcher(body);
      Matcher exit = EXIT.matcher(body);
      if (rewrite.matches()) {
        rewrites.add(new String[] {rewrite.group(1), rewrite.group(2)});
      } else if (skip.matches()) {
        skips.add(skip.group(1));
      } else if (body.startsWith("given ")) {
        givens.add(body.substring("given ".length()).trim());
      } else if (exit.matches()) {
        exits.add(new Exit(exit.group(2), Integer.parseInt(exit.group(1))));
      } else {
        problems.add(
            "unknown marker <!-- test: "
                + body
                + " -->; allowed: \"FROM\" -> \"TO\", skip `PREFIX` why, given STATEMENT,"
                + " exit N: `PREFIX`");
      }
    }
    for (String[] r : rewrites) {
      if (!String.join("\n", lines).contains(r[0])) {
        problems.add("the rewrite \"" + r[0] + "\" matches nothing in the block");
      }
    }
    return new DocBlock(
        file, line, lang, lines, illustrative, rewrites, skips, givens, exits, problems);
  }
}
