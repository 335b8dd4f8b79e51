package io.snowid.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Reads JMH JSON result files ({@code -rf json -rff FILE}) of {@link Capped}, {@link CappedYitter},
 * {@link Batch}, {@link Floor} and {@link Uncapped} and prints one Markdown table, snowid next to
 * each peer with the ratio snowid/peer, then the targets of BENCHMARKS.md (section "Targets"), met
 * or missed. A file named {@code loaded-LOAD.json} holds capped runs made while bench/run.sh ran
 * the background load LOAD (bench/Load.java): they get rows and a target of their own.
 *
 * <p>{@code java -cp benchmarks.jar io.snowid.bench.Report results-*.json}
 *
 * <p>Longer than ~500 lines because each peer's row and each target read the same parsed results;
 * it is a tool of the benchmark module, never published.
 */
public final class Report {
  private static final String SNOWID = "snowid";
  private static final List<String> PEERS =
      List.of("westid", "hutool", "cosid", "yitter-m1", "yitter-m2", "classic");
  private static final String UUID = "uuid";

  /**
   * yitter's method 1 ("drift") does not wait when a sequence is spent: it issues IDs stamped with
   * future milliseconds, up to 2000 of them ahead. It is shown, but it is not a capped generator,
   * so it is not counted as the best peer of the capped rows.
   */
  private static final String DRIFTS = "yitter-m1";

  /** One metric of one benchmark run: mean and JMH's 99.9% error half-width. */
  record Metric(double score, double error) {
    Metric scale(double f) {
      return new Metric(score * f, error * f);
    }
  }

  /** One JMH result. */
  record Run(String group, String generator, int threads, Map<String, Object> json) {
    String param(String name) {
      Object p = json.get("params");
      return p instanceof Map<?, ?> m ? Objects.toString(m.get(name), null) : null;
    }

    Metric primary() {
      return metric(json.get("primaryMetric"));
    }

    /** A secondary metric by key suffix (JMH has prefixed gc metrics with "·" in some versions). */
    Metric secondary(String suffix) {
      if (json.get("secondaryMetrics") instanceof Map<?, ?> m) {
        for (Map.Entry<?, ?> e : m.entrySet()) {
          if (e.getKey().toString().endsWith(suffix)) {
            return metric(e.getValue());
          }
        }
      }
      return null;
    }

    private static Metric metric(Object o) {
      if (!(o instanceof Map<?, ?> m)) {
        return null;
      }
      return new Metric(Json.number(m.get("score")), Json.number(m.get("scoreError")));
    }
  }

  private static final String LOADED = "Loaded ";

  private final List<Run> runs = new ArrayList<>();
  private final LinkedHashSet<String> loads = new LinkedHashSet<>();
  private final List<String> rows = new ArrayList<>();
  private final List<String> targets = new ArrayList<>();

  private Report() {}

  public static void main(String[] args) throws IOException {
    if (args.length == 0) {
      System.err.println("usage: Report jmh-result.json...");
      System.exit(2);
    }
    Report r = new Report();
    for (String a : args) {
      r.read(Path.of(a));
    }
    r.print(System.out);
  }

  @SuppressWarnings("unchecked")
  private void read(Path file) throws IOException {
    Object parsed = Json.parse(Files.readString(file, StandardCharsets.UTF_8));
    String name = file.getFileName().toString();
    String load =
        name.startsWith("loaded-") && name.endsWith(".json")
            ? name.substring("loaded-".length(), name.length() - ".json".length())
            : null;
    if (load != null) {
      loads.add(load);
    }
    for (Object o : (List<Object>) parsed) {
      Map<String, Object> j = (Map<String, Object>) o;
      String bench = (String) j.get("benchmark");
      int dot = bench.lastIndexOf('.');
      String gen = bench.substring(dot + 1);
      String group = bench.substring(bench.lastIndexOf('.', dot - 1) + 1, dot);
      int threads = (int) Json.number(j.get("threads"));
      Run run = new Run(group, gen, threads, j);
      if (gen.equals("yitter")) {
        String method = run.param("method");
        gen = "yitter-m" + (method == null ? "1" : method);
        run = new Run(group, gen, threads, j);
      }
      if (group.equals("CappedYitter")) {
        run = new Run("Capped", gen, threads, j);
      }
      if (load != null) {
        run = new Run(LOADED + load, run.generator, threads, j);
      }
      runs.add(run);
    }
  }

  private Run find(String group, String gen, int threads, String paramName, String paramValue) {
    for (Run r : runs) {
      if (r.group.equals(group)
          && r.generator.equals(gen)
          && r.threads == threads
          && (paramName == null || paramValue.equals(r.param(paramName)))) {
        return r;
      }
    }
    return null;
  }

  private Metric metric(String group, String gen, int threads, ToMetric f) {
    Run r = find(group, gen, threads, null, null);
    return r == null ? null : f.apply(r);
  }

  interface ToMetric {
    Metric apply(Run r);
  }

  // ---------------------------------------------------------------------------------------------

  private void print(PrintStream out) {
    List<String> cols = new ArrayList<>();
    cols.add(SNOWID);
    cols.addAll(PEERS);
    cols.add(UUID);
    StringBuilder head = new StringBuilder("| benchmark | threads | unit |");
    StringBuilder sep = new StringBuilder("|---|---:|---|");
    for (String c : cols) {
      head.append(' ').append(c).append(" |");
      sep.append("---:|");
    }
    head.append(" best peer | snowid / best peer |");
    sep.append("---:|---:|");
    rows.add(head.toString());
    rows.add(sep.toString());

    int[] threadCounts = {1, 4};
    for (int t : threadCounts) {
      generatorRow(
          "capped nextId: throughput / cap (4.096M IDs/s)",
          t,
          "fraction",
          true,
          r -> r.generator.equals(UUID) ? null : r.primary().scale(1 / Peers.CAP),
          "Capped",
          4);
      generatorRow(
          "capped nextId: throughput",
          t,
          "M IDs/s",
          true,
          r -> r.primary().scale(1e-6),
          "Capped",
          3);
      generatorRow(
          "capped nextId: CPU per 1M IDs",
          t,
          "CPU-s",
          false,
          r -> scaled(r.secondary(CpuProfiler.CPU_PER_OP), 1e-3),
          "Capped",
          4);
      generatorRow(
          "capped nextId: CPU per 1M IDs, whole process (10 ms ticks)",
          t,
          "CPU-s",
          false,
          r -> scaled(r.secondary(CpuProfiler.PROCESS_CPU_PER_OP), 1e-3),
          "Capped",
          4);
      generatorRow(
          "capped nextId: cores busy",
          t,
          "cores",
          false,
          r -> r.secondary(CpuProfiler.CORES),
          "Capped",
          2);
    }
    for (String load : loads) {
      generatorRow(
          "capped nextId, " + loadLabel(load) + ": throughput / cap",
          1,
          "fraction",
          true,
          r -> r.generator.equals(UUID) ? null : r.primary().scale(1 / Peers.CAP),
          LOADED + load,
          4);
      generatorRow(
          "capped nextId, " + loadLabel(load) + ": CPU per 1M IDs",
          1,
          "CPU-s",
          false,
          r -> scaled(r.secondary(CpuProfiler.CPU_PER_OP), 1e-3),
          LOADED + load,
          4);
    }
    for (int t : threadCounts) {
      Metric floor = metric("Floor", "clockAndAdd", t, r -> r.secondary(CpuProfiler.CPU_PER_OP));
      if (floor != null) {
        single("floor: nanoTime() + one shared getAndIncrement(), CPU per op", t, "ns", floor, 1);
      }
    }
    for (String size : List.of("256", "4096")) {
      double n = Double.parseDouble(size);
      for (int t : threadCounts) {
        Run r = find("Batch", SNOWID, t, "size", size);
        if (r == null) {
          continue;
        }
        single(
            "batch nextIds(long[" + size + "]): throughput / cap",
            t,
            "fraction",
            r.primary().scale(n / Peers.CAP),
            4);
        single(
            "batch nextIds(long[" + size + "]): throughput",
            t,
            "M IDs/s",
            r.primary().scale(n / 1e6),
            3);
        single(
            "batch nextIds(long[" + size + "]): CPU per 1M IDs",
            t,
            "CPU-s",
            scaled(r.secondary(CpuProfiler.CPU_PER_OP), 1e-3 / n),
            4);
      }
    }
    generatorRow(
        "uncapped nextId (time=41,worker=1,sequence=21)",
        1,
        "ns/op",
        false,
        Run::primary,
        "Uncapped",
        2);
    generatorRow(
        "uncapped nextId: allocation",
        1,
        "B/op",
        false,
        r -> r.secondary("gc.alloc.rate.norm"),
        "Uncapped",
        1);
    for (int t : threadCounts) {
      generatorRow(
          "capped nextId: allocation",
          t,
          "B/op",
          false,
          r -> r.secondary("gc.alloc.rate.norm"),
          "Capped",
          1);
    }
    floorRow(
        "uncapped nextId, snowid on TimeSource.wallClock() (the peers' clock)", "snowidWallClock");
    floorRow("floor: System.nanoTime() (snowid's clock)", "nanoTime");
    floorRow("floor: System.currentTimeMillis() (peers' clock)", "currentTimeMillis");
    floorRow("floor: TimeSource.monotonic().millis()", "monotonicMillis");
    floorRow("Layout.decode(id)", "decode");
    Metric decodeAlloc = metric("Uncapped", "decode", 1, r -> r.secondary("gc.alloc.rate.norm"));
    if (decodeAlloc != null) {
      single("Layout.decode(id): allocation", 1, "B/op", decodeAlloc, 1);
    }

    out.println(String.join("\n", rows));
    out.println();
    out.println(
        "Cells: mean ± JMH 99.9% error; in a peer's cell, (snowid / that peer). "
            + DRIFTS
            + " (yitter's drift method) stamps IDs with future milliseconds when a sequence is"
            + " spent instead of waiting, so it is not counted as the best capped peer.");
    out.println();
    checkTargets();
    out.println("Targets (BENCHMARKS.md, \"Targets\"):");
    out.println();
    for (String line : targets) {
      out.println("- " + line);
    }
  }

  private static Metric scaled(Metric m, double f) {
    return m == null ? null : m.scale(f);
  }

  /** A row with one cell per generator, the best peer and snowid's ratio to each peer. */
  private void generatorRow(
      String label,
      int threads,
      String unit,
      boolean higherIsBetter,
      ToMetric f,
      String group,
      int digits) {
    Metric s = metric(group, SNOWID, threads, f);
    boolean any = s != null;
    StringBuilder row = new StringBuilder();
    row.append("| ").append(label).append(" | ").append(threads).append(" | ").append(unit);
    row.append(" | ").append(cell(s, digits));
    Metric best = null;
    String bestName = null;
    for (String p : PEERS) {
      Metric m = metric(group, p, threads, f);
      any |= m != null;
      String c = cell(m, digits);
      if (m != null && s != null && m.score != 0) {
        c += " (" + fmt(s.score / m.score, 2) + "×)";
      }
      row.append(" | ").append(c);
      if (m != null
          && !Double.isNaN(m.score)
          && !((group.equals("Capped") || group.startsWith(LOADED)) && p.equals(DRIFTS))
          && (best == null || (higherIsBetter ? m.score > best.score : m.score < best.score))) {
        best = m;
        bestName = p;
      }
    }
    Metric u = metric(group, UUID, threads, f);
    row.append(" | ").append(cell(u, digits));
    row.append(" | ").append(best == null ? "" : bestName + " " + fmt(best.score, digits));
    row.append(" | ")
        .append(
            best == null || s == null || best.score == 0
                ? ""
                : fmt(s.score / best.score, 3) + (higherIsBetter ? " (higher is better)" : ""));
    row.append(" |");
    if (any) {
      rows.add(row.toString());
    }
  }

  /** A snowid-only row. */
  private void single(String label, int threads, String unit, Metric m, int digits) {
    StringBuilder row = new StringBuilder();
    row.append("| ").append(label).append(" | ").append(threads).append(" | ").append(unit);
    row.append(" | ").append(cell(m, digits));
    row.append(" |".repeat(PEERS.size() + 1)).append(" | | |");
    rows.add(row.toString());
  }

  private void floorRow(String label, String method) {
    Metric m = metric("Uncapped", method, 1, Run::primary);
    if (m != null) {
      single(label, 1, "ns/op", m, 2);
    }
  }

  // ---------------------------------------------------------------------------------------------

  private void checkTargets() {
    Metric clock = metric("Uncapped", "nanoTime", 1, Run::primary);
    Metric millisClock = metric("Uncapped", "currentTimeMillis", 1, Run::primary);
    for (int t : new int[] {1, 4}) {
      Metric frac = metric("Capped", SNOWID, t, r -> r.primary().scale(1 / Peers.CAP));
      if (frac != null) {
        target(
            frac.score >= 0.997,
            "capped throughput ≥ 0.997 of the cap, "
                + t
                + " thread(s): "
                + fmt(frac.score, 4)
                + " ± "
                + fmt(frac.error, 4));
      }
      Metric cpu = metric("Capped", SNOWID, t, r -> r.secondary(CpuProfiler.CPU_PER_OP));
      if (cpu != null) {
        double best = Double.NaN;
        String bestName = null;
        for (String p : PEERS) {
          Metric m = metric("Capped", p, t, r -> r.secondary(CpuProfiler.CPU_PER_OP));
          if (m != null && !p.equals(DRIFTS) && (Double.isNaN(best) || m.score < best)) {
            best = m.score;
            bestName = p;
          }
        }
        if (bestName != null) {
          target(
              cpu.score <= best / 5,
              "CPU per ID at the cap ≤ 1/5 of the best peer's, "
                  + t
                  + " thread(s): "
                  + fmt(cpu.score / 1000, 4)
                  + " CPU-s per 1M IDs vs "
                  + bestName
                  + " "
                  + fmt(best / 1000, 4)
                  + " (ratio "
                  + fmt(cpu.score / best, 3)
                  + ", limit 0.2)");
        }
        if (clock != null) {
          target(
              cpu.score <= 2 * clock.score,
              "CPU per ID at the cap ≤ 2× one clock read, "
                  + t
                  + " thread(s): "
                  + fmt(cpu.score, 1)
                  + " ns per ID vs nanoTime "
                  + fmt(clock.score, 1)
                  + " ns (ratio "
                  + fmt(cpu.score / clock.score, 2)
                  + ", limit 2)");
        }
      }
    }
    for (String load : loads) {
      ToMetric fraction = r -> r.primary().scale(1 / Peers.CAP);
      Metric frac = metric(LOADED + load, SNOWID, 1, fraction);
      Metric best = null;
      String bestName = null;
      for (String p : PEERS) {
        Metric m = metric(LOADED + load, p, 1, fraction);
        if (m != null && !p.equals(DRIFTS) && (best == null || m.score > best.score)) {
          best = m;
          bestName = p;
        }
      }
      if (frac != null && load.equals("quiet")) {
        target(
            frac.score >= 0.997,
            "capped throughput ≥ 0.997 of the cap, 1 thread, 8 s iterations: "
                + fmt(frac.score, 4)
                + " ± "
                + fmt(frac.error, 4));
      }
      if (frac != null && best != null) {
        target(
            frac.score >= best.score,
            "capped throughput, "
                + loadLabel(load)
                + ", 1 thread, ≥ the best spinning peer's: "
                + fmt(frac.score, 4)
                + " ± "
                + fmt(frac.error, 4)
                + " vs "
                + bestName
                + " "
                + fmt(best.score, 4)
                + " ± "
                + fmt(best.error, 4));
      }
    }
    Metric un = metric("Uncapped", SNOWID, 1, Run::primary);
    if (un != null) {
      double best = Double.NaN;
      String bestName = null;
      for (String p : PEERS) {
        Metric m = metric("Uncapped", p, 1, Run::primary);
        if (m != null && (Double.isNaN(best) || m.score < best)) {
          best = m.score;
          bestName = p;
        }
      }
      if (bestName != null) {
        target(
            un.score <= best,
            "uncapped ≤ best peer on the same layout: "
                + fmt(un.score, 2)
                + " ns vs "
                + bestName
                + " "
                + fmt(best, 2)
                + " ns (ratio "
                + fmt(un.score / best, 3)
                + ")");
      }
      if (clock != null) {
        target(
            un.score <= 1.5 * clock.score,
            "uncapped ≤ 1.5× one bare clock read: "
                + fmt(un.score, 2)
                + " ns vs nanoTime "
                + fmt(clock.score, 2)
                + " ns (ratio "
                + fmt(un.score / clock.score, 2)
                + (millisClock == null
                    ? ""
                    : "; vs currentTimeMillis "
                        + fmt(millisClock.score, 2)
                        + " ns: "
                        + fmt(un.score / millisClock.score, 2))
                + ", limit 1.5)");
      }
    }
    Metric alloc = metric("Uncapped", SNOWID, 1, r -> r.secondary("gc.alloc.rate.norm"));
    if (alloc != null) {
      target(
          alloc.score < 0.5,
          "nextId() allocates nothing: " + fmt(alloc.score, 3) + " B/op (gc.alloc.rate.norm)");
    }
    Metric dec = metric("Uncapped", "decode", 1, r -> r.secondary("gc.alloc.rate.norm"));
    if (dec != null) {
      targets.add(
          "CHECK  decode allocates only its result: "
              + fmt(dec.score, 1)
              + " B/op for one DecodedId (with compressed oops the object alone is 48 B; more"
              + " means it allocates beyond itself)");
    }
  }

  private static String loadLabel(String load) {
    return load.equals("quiet") ? "quiet, 8 s iterations" : "under load '" + load + "'";
  }

  private void target(boolean met, String text) {
    targets.add((met ? "MET    " : "MISSED ") + text);
  }

  private static String cell(Metric m, int digits) {
    if (m == null || Double.isNaN(m.score)) {
      return "";
    }
    if (Double.isNaN(m.error)) {
      return fmt(m.score, digits);
    }
    return fmt(m.score, digits) + " ± " + fmt(m.error, digits);
  }

  private static String fmt(double v, int digits) {
    return String.format(Locale.ROOT, "%." + digits + "f", v);
  }
}
