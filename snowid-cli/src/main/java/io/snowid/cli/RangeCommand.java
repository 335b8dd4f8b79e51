package io.snowid.cli;

import io.snowid.IdRange;
import io.snowid.InvalidSettingException;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code snowid range}: the first and last ID of a stretch of time, for {@code BETWEEN}. */
@Command(
    name = "range",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Show the first and the last ID a layout gives from --from to --to (both ends' time units"
          + " included), for WHERE id BETWEEN first AND last.",
      "Instants are ISO-8601 (2026-11-27T08:00:00Z) or dates (2026-11-27, its midnight UTC)."
    })
final class RangeCommand extends SnowIdSubcommand {
  @Option(names = "--from", required = true, paramLabel = "T", description = "The first instant.")
  String from;

  @Option(
      names = "--to",
      required = true,
      paramLabel = "T",
      description = "The last instant (its time unit included).")
  String to;

  @Mixin LayoutOption layout;

  @Option(
      names = "--json",
      defaultValue = "${env:SNOWID_JSON:-false}",
      description = "One JSON object, as GET /range returns it (env SNOWID_JSON).")
  boolean json;

  @Override
  public Integer call() {
    IdRange range;
    try {
      range = IdRange.of(layout.get(), IdRange.instant("from", from), IdRange.instant("to", to));
    } catch (InvalidSettingException e) {
      throw inOptionWords(e);
    }
    PrintWriter out = out();
    if (json) {
      out.println(range.toJson());
    } else {
      out.println("from   " + range.from());
      out.println("to     " + range.to());
      out.println("first  " + Long.toUnsignedString(range.first()));
      out.println("last   " + Long.toUnsignedString(range.last()));
      out.println("sql    " + range);
    }
    flushOut();
    return 0;
  }

  /** A refusal of {@code from} or {@code to} as the option and the text the user gave. */
  private InvalidSettingException inOptionWords(InvalidSettingException e) {
    return switch (e.setting()) {
      case "from" -> new InvalidSettingException("--from", Errors.cut(from), e.allowed());
      case "to" -> new InvalidSettingException("--to", Errors.cut(to), e.allowed());
      default -> e;
    };
  }
}
