package io.snowid.cli;

import io.snowid.DecodedId;
import io.snowid.InvalidIdException;
import io.snowid.Layout;
import io.snowid.codec.IdCodec;
import io.snowid.codec.UndetectedFormException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code snowid decode}: the time and fields of IDs. */
@Command(
    name = "decode",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Show the time (ISO-8601 UTC), node fields and sequence of IDs.",
      "Digits are read as decimal; an ID as long as a fixed-width form (11, 13, 14 or 16"
          + " characters) needs --format."
    })
final class DecodeCommand extends SnowIdSubcommand {
  @Parameters(arity = "1..*", paramLabel = "ID", description = "IDs in any text form.")
  List<String> ids;

  @Mixin LayoutOption layout;
  @Mixin FormatOption format;

  @Option(
      names = "--json",
      defaultValue = "${env:SNOWID_JSON:-false}",
      description =
          "One JSON object per ID and line, as GET /decode/{id} returns it (env SNOWID_JSON).")
  boolean json;

  @Override
  public Integer call() {
    Layout l = layout.get();
    IdCodec given = format.getOr(null);
    List<DecodedId> decoded = new ArrayList<>();
    for (String text : ids) {
      String t = text.trim();
      IdCodec codec = given != null ? given : detect(t);
      long id = codec.decode(t);
      try {
        decoded.add(l.decode(id));
      } catch (InvalidIdException e) {
        throw new InvalidIdException(Errors.cut(t), e.reason()); // the input, not the number
      }
    }
    PrintWriter out = out();
    if (json) {
      for (DecodedId d : decoded) {
        out.println(d.toJson());
      }
    } else {
      table(l, decoded).print(out);
    }
    flushOut();
    return 0;
  }

  private static IdCodec detect(String text) {
    try {
      return IdCodec.detect(text);
    } catch (UndetectedFormException e) {
      throw new InvalidIdException(Errors.cut(text), e.reasonWith("--format "));
    }
  }

  private static Table table(Layout layout, List<DecodedId> decoded) {
    List<String> header = new ArrayList<>(List.of("ID", "TIME (UTC)"));
    for (Layout.Field f : layout.fields()) {
      if (decoded.get(0).fields().containsKey(f.name())) {
        header.add(f.name().toUpperCase(java.util.Locale.ROOT));
      }
    }
    header.add("SEQUENCE");
    Table table = new Table(header);
    for (DecodedId d : decoded) {
      List<String> row = new ArrayList<>();
      row.add(layout.totalBits() == 64 ? Long.toUnsignedString(d.id()) : Long.toString(d.id()));
      row.add(d.instant().toString());
      d.fields().values().forEach(v -> row.add(Long.toString(v)));
      row.add(Long.toString(d.sequence()));
      table.add(row);
    }
    return table;
  }
}
