package io.snowid.cli;

import io.snowid.Int32Generator;
import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.codec.IdCodec;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code snowid generate}: new IDs, one per line. */
@Command(
    name = "generate",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Print new IDs, one per line, in increasing order.",
      "The node id is leased from this host's lease directory by default, so concurrent runs never"
          + " issue the same ID."
    })
final class GenerateCommand extends SnowIdSubcommand {
  static final long MAX_COUNT = 10_000_000;
  private static final int BATCH = 8192;

  @Option(
      names = {"-n", "--count"},
      paramLabel = "N",
      defaultValue = "${env:SNOWID_COUNT:-1}",
      converter = Ranged.Count.class,
      description = "How many IDs, 1..10000000 (env SNOWID_COUNT; default ${DEFAULT-VALUE}).")
  long count;

  @Mixin FormatOption format;
  @Mixin LayoutOption layout;
  @Mixin NodeOption node;

  @Override
  public Integer call() {
    IdCodec codec = format.getOr(IdCodec.DECIMAL);
    Layout l = layout.forGenerating();
    Logs.configure(verbose, verbose);
    PrintWriter out = out();
    if (l.wraps()) {
      return int32(l, codec, out);
    }
    try (Snowflake generator = Snowflake.builder().layout(l).nodeSource(node.get()).build()) {
      announceWait(generator.nodeStatus());
      long[] ids = new long[(int) Math.min(count, BATCH)];
      for (long left = count; left > 0; left -= ids.length) {
        if (left < ids.length) {
          ids = new long[(int) left];
        }
        generator.nextIds(ids);
        for (long id : ids) {
          out.println(codec.encode(id));
        }
        flushOut(); // a full disk or a closed stdout stops the run here, with exit code 1
      }
    }
    return 0;
  }

  /** The wrapping 32-bit layout has its own generator. */
  private int int32(Layout l, IdCodec codec, PrintWriter out) {
    if (!l.equals(Layout.preset("int32"))) {
      throw new InvalidSettingException("layout", l.spec(), "int32, the one wrapping layout");
    }
    try (Int32Generator generator = Int32Generator.fromNodeSource(node.get())) {
      announceWait(generator.nodeStatus());
      for (long i = 1; i <= count; i++) {
        out.println(codec.encode(generator.nextInt()));
        if (i % BATCH == 0) {
          flushOut();
        }
      }
    }
    flushOut();
    return 0;
  }
}
