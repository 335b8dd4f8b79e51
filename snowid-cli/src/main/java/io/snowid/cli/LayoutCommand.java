package io.snowid.cli;

import io.snowid.Durations;
import io.snowid.Layout;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code snowid layout}: what a layout can hold and for how long. */
@Command(
    name = "layout",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Show a layout: its bit table, epoch, last valid instant and years left, node count and IDs"
          + " per second per node.",
      "Warns when fewer than 10 years are left."
    })
final class LayoutCommand extends SnowIdSubcommand {
  static final double WARN_YEARS = 10;
  private static final double SECONDS_PER_YEAR = 365.2425 * 24 * 3600;

  @Mixin LayoutOption layout;

  @Override
  public Integer call() {
    Layout l = layout.get();
    report(l, layout.layout.trim(), Instant.now(), out());
    flushOut();
    return 0;
  }

  static void report(Layout l, String asGiven, Instant now, PrintWriter out) {
    boolean preset = Layout.presetNames().contains(asGiven);
    out.println("layout        " + (preset ? asGiven : "(spec)"));
    out.println("spec          " + l.spec());
    out.println();
    Table bits = new Table(List.of("BITS", "FIELD", "WIDTH", "MAX"));
    if (l.totalBits() < 64) {
      bits.add(List.of("63", "(sign, 0)", "1", "0"));
      if (l.totalBits() < 63) {
        bits.add(List.of(range(62, l.totalBits()), "(unused, 0)", "" + (63 - l.totalBits()), "0"));
      }
    }
    for (Layout.Field f : l.fields()) {
      String max = group(f.max());
      if (f.equals(l.timeField()) && l.maxTime() != f.max()) {
        max = group(l.maxTime()) + " (generated)";
      }
      bits.add(List.of(range(f.shift() + f.bits() - 1, f.shift()), f.name(), "" + f.bits(), max));
    }
    bits.print(out);
    out.println();
    out.println("epoch         " + l.epoch());
    out.println("unit          " + l.unitMillis() + " ms");
    double years = Double.POSITIVE_INFINITY;
    if (l.wraps()) {
      out.println(
          "wraps every   "
              + Durations.format(l.wrapWindow())
              + " (IDs repeat after it: unique only within that window)");
    } else {
      Duration left = l.remainingLifetime(now);
      years = left.toSeconds() / SECONDS_PER_YEAR;
      out.println("last instant  " + l.lastInstant());
      out.println(
          "years left    "
              + (years > 0 ? String.format(Locale.ROOT, "%.1f", years) : "none (expired)"));
    }
    out.println("node count    " + group(l.nodeCount()));
    out.println("IDs/s/node    " + group((long) l.idsPerSecondPerNode()));
    if (years <= 0) {
      out.println();
      out.println(
          "WARNING: this layout expired on "
              + l.lastInstant()
              + ": it can decode IDs but not generate them.");
    } else if (years < WARN_YEARS) {
      out.println();
      out.println(
          String.format(
              Locale.ROOT,
              "WARNING: only %.1f years left (until %s); choose a later epoch or a wider time"
                  + " field before IDs run out.",
              years,
              l.lastInstant()));
    }
  }

  private static String range(int high, int low) {
    return high == low ? "" + high : high + ".." + low;
  }

  static String group(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}
