package io.snowid.cli;

import io.snowid.InvalidSettingException;
import io.snowid.lease.Secrets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The line for an unknown command or option: the one most likely meant ("did you mean"), else those
 * there are; always the command's help to see.
 */
final class Unknown {
  private Unknown() {}

  /** The line for {@code u}, or empty where picocli's own says it better (a stray argument). */
  static Optional<String> line(UnmatchedArgumentException u, String... uris) {
    CommandSpec spec = u.getCommandLine().getCommandSpec();
    List<String> unmatched = u.getUnmatched();
    if (unmatched.isEmpty()) {
      return Optional.empty();
    }
    String first = unmatched.get(0);
    String command = spec.qualifiedName();
    String of = command.equals("snowid") ? "" : " of " + command;
    String help = " (see " + command + " --help)";
    if (first.startsWith("-")) {
      String name = first.split("=", 2)[0];
      return Optional.of(message("option", name, of, longNames(spec), help, uris));
    }
    if (!spec.subcommands().isEmpty() && spec.positionalParameters().isEmpty()) {
      List<String> commands = new ArrayList<>(spec.subcommands().keySet());
      return Optional.of(message("command", first, of, commands, help, uris));
    }
    return Optional.empty();
  }

  /** {@code snowid: unknown option '--cout' of snowid generate; did you mean --count? (see …)}. */
  private static String message(
      String kind, String given, String of, List<String> known, String help, String[] uris) {
    return "snowid: unknown "
        + kind
        + " '"
        + Errors.cut(Secrets.scrub(given, uris))
        + "'"
        + of
        + hint(given, known, "the " + kind + "s are ")
        + help;
  }

  /** "; did you mean X?" for a near miss of a name of three characters or more, else the list. */
  private static String hint(String given, List<String> known, String listed) {
    Optional<String> near =
        given.replace("-", "").length() < 3
            ? Optional.empty()
            : InvalidSettingException.nearMiss(given, known);
    return near.map(n -> "; did you mean " + n + "?")
        .orElse("; " + listed + String.join(", ", known));
  }

  /** The long name of each option, sorted as the help lists them. */
  private static List<String> longNames(CommandSpec spec) {
    List<String> names = new ArrayList<>();
    for (OptionSpec o : spec.options()) {
      names.add(o.longestName());
    }
    names.sort(null);
    return names;
  }
}
