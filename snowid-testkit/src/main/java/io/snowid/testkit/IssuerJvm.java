package io.snowid.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * An {@link IssuerMain} child JVM, started with this test's class path: generators that each issue
 * a fixed number of IDs, for tests that two configurations never share node values (whatever they
 * look like) and so never an ID.
 *
 * <pre>{@code
 * try (IssuerJvm a = IssuerJvm.in(dir, "a").count(2_500_000).env("SNOWID_DATACENTER_ID", "0")
 *         .start(uri);
 *     IssuerJvm b = IssuerJvm.in(dir, "b").count(2_500_000).start(uri)) {
 *   a.awaitReady();                   // each holds its lease
 *   b.awaitReady();
 *   IssuerJvm.Outcome o = IssuerJvm.issueTogether(a, b);
 *   o.assertApart();                  // different node values, no ID twice
 * }
 * }</pre>
 */
public final class IssuerJvm implements AutoCloseable {
  private static final Duration WITHIN = Duration.ofMinutes(3);

  private final Process process;
  private final Path prefix;
  private final Path err;
  private final int generators;
  private final long count;
  private final BufferedReader out;
  private List<String> nodes = List.of();

  private IssuerJvm(Process process, Path prefix, Path err, int generators, long count) {
    this.process = process;
    this.prefix = prefix;
    this.err = err;
    this.generators = generators;
    this.count = count;
    this.out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  /**
   * A process to start, whose IDs ({@code NAME.INDEX.ids}) and standard error ({@code NAME.err}) go
   * to {@code dir}.
   */
  public static Launch in(Path dir, String name) {
    return new Launch(dir, name);
  }

  /** How to start an {@link IssuerJvm}. */
  public static final class Launch {
    private final Path dir;
    private final String name;
    private long count = 1;
    private final Map<String, String> environment = new LinkedHashMap<>();
    private final List<String> jvmOptions = new ArrayList<>();
    private final List<String> commandPrefix = new ArrayList<>();

    private Launch(Path dir, String name) {
      this.dir = dir;
      this.name = name;
    }

    /** How many IDs each generator issues (the first, taken before it is ready, included). */
    public Launch count(long count) {
      this.count = count;
      return this;
    }

    /** A variable of its environment (which has no other {@code SNOWID_*} variables). */
    public Launch env(String variable, String value) {
      environment.put(variable, value);
      return this;
    }

    /** A JVM option, e.g. {@code -Dsnowid.node=…} for the {@code snowid} source. */
    public Launch jvmOption(String option) {
      jvmOptions.add(option);
      return this;
    }

    /** A command the JVM runs under, e.g. {@code unshare -n} (no network: no IPv4 address). */
    public Launch under(String... command) {
      commandPrefix.addAll(List.of(command));
      return this;
    }

    /**
     * Starts it, with one generator per source: {@code snowid} (the process-wide generator) or a
     * node URI (a {@code twitter} generator of its own).
     */
    public IssuerJvm start(String... sources) throws IOException {
      Path prefix = dir.resolve(name);
      Path err = dir.resolve(name + ".err");
      List<String> options = new ArrayList<>(List.of("-Xmx256m", "-XX:TieredStopAtLevel=1"));
      options.addAll(jvmOptions);
      List<String> args = new ArrayList<>(List.of(Long.toString(count), prefix.toString()));
      args.addAll(List.of(sources));
      ProcessBuilder child =
          ChildJvm.of(IssuerMain.class, options, args.toArray(new String[0]))
              .redirectError(err.toFile());
      child.command().addAll(0, commandPrefix);
      child.environment().keySet().removeIf(k -> k.startsWith("SNOWID_"));
      child.environment().putAll(environment);
      return new IssuerJvm(child.start(), prefix, err, sources.length, count);
    }
  }

  /**
   * Its first line: ready (the node values of each generator, once each holds them and issued its
   * first ID) or refused (one could not be built; it then exits 3).
   *
   * @param nodes each generator's node values ({@code {datacenter=0, worker=1}}), or empty
   * @param refusal {@code CLASS: MESSAGE} of the exception that refused a generator, or null
   */
  public record Readiness(List<String> nodes, String refusal) {}

  /** Waits for its first line, ready or refused. */
  public Readiness awaitReadyOrRefused() throws IOException, InterruptedException {
    String line = out.readLine();
    assertThat(line).as("first line; %s", stderr()).isNotNull();
    if (line.startsWith("ready ")) {
      nodes = List.of(line.substring("ready ".length()).split(" ; "));
      return new Readiness(nodes, null);
    }
    assertThat(line).as("first line; %s", stderr()).startsWith("refused ");
    assertThat(process.waitFor(WITHIN.toSeconds(), TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(stderr()).isEqualTo(3);
    return new Readiness(List.of(), line.substring(line.indexOf(' ', "refused ".length()) + 1));
  }

  /**
   * Waits until each generator holds its node values and issued its first ID.
   *
   * @return each generator's node values ({@code {datacenter=0, worker=1}})
   * @throws AssertionError if it was refused
   */
  public List<String> awaitReady() throws IOException, InterruptedException {
    Readiness r = awaitReadyOrRefused();
    assertThat(r.refusal()).as("refusal; %s", stderr()).isNull();
    return r.nodes();
  }

  /**
   * Waits for it to be refused and exit.
   *
   * @return {@code CLASS: MESSAGE} of the exception that refused a generator
   * @throws AssertionError if it got ready instead
   */
  public String awaitRefused() throws IOException, InterruptedException {
    Readiness r = awaitReadyOrRefused();
    assertThat(r.refusal())
        .as("refused, but was ready with %s; %s", r.nodes(), stderr())
        .isNotNull();
    return r.refusal();
  }

  /** Lets its generators issue the rest of their IDs. */
  public void go() throws IOException {
    OutputStream in = process.getOutputStream();
    in.write('\n');
    in.flush();
  }

  /** Waits until every generator issued its count (it still holds its leases). */
  public void awaitIssued() throws IOException {
    String line = out.readLine();
    assertThat(line).as("line after go; %s", stderr()).isEqualTo("issued");
  }

  /** Closes its standard input: it releases its leases and exits 0. */
  public void stop() throws IOException, InterruptedException {
    process.getOutputStream().close();
    assertThat(process.waitFor(WITHIN.toSeconds(), TimeUnit.SECONDS)).as(stderr()).isTrue();
    assertThat(process.exitValue()).as(stderr()).isZero();
  }

  /**
   * The IDs generator {@code index} issued, in order.
   *
   * @throws AssertionError unless each is greater than the one before (one generator, one thread)
   */
  public long[] ids(int index) throws IOException {
    long[] ids = ChildJvm.readIds(Path.of(prefix + "." + index + ".ids"));
    for (int i = 1; i < ids.length; i++) {
      if (ids[i] <= ids[i - 1]) {
        throw new AssertionError(
            prefix.getFileName() + "." + index + ": " + ids[i] + " after " + ids[i - 1]);
      }
    }
    return ids;
  }

  /**
   * What the generators of some ready processes issued at once: each process is told to go, waited
   * for, stopped (releasing its leases), and its IDs read (each generator's whole count,
   * ascending).
   */
  public static Outcome issueTogether(IssuerJvm... processes)
      throws IOException, InterruptedException {
    for (IssuerJvm p : processes) {
      p.go();
    }
    for (IssuerJvm p : processes) {
      p.awaitIssued();
    }
    for (IssuerJvm p : processes) {
      p.stop();
    }
    List<String> nodes = new ArrayList<>();
    List<long[]> ids = new ArrayList<>();
    for (IssuerJvm p : processes) {
      assertThat(p.nodes).as("%s was ready", p.prefix.getFileName()).hasSize(p.generators);
      for (int g = 0; g < p.generators; g++) {
        nodes.add(p.prefix.getFileName() + "." + g + " " + p.nodes.get(g));
        long[] issued = p.ids(g);
        assertThat((long) issued.length)
            .as("IDs of %s.%d", p.prefix.getFileName(), g)
            .isEqualTo(p.count);
        ids.add(issued);
      }
    }
    long total = 0;
    long shared = 0;
    String examples = "[]";
    for (int i = 0; i < ids.size(); i++) {
      total += ids.get(i).length;
      for (int j = i + 1; j < ids.size(); j++) {
        long s = shared(ids.get(i), ids.get(j));
        if (s > 0 && shared == 0) {
          examples = sharedExamples(ids.get(i), ids.get(j), 5);
        }
        shared += s;
      }
    }
    List<String> values = new ArrayList<>();
    for (String n : nodes) {
      values.add(n.substring(n.indexOf(' ') + 1));
    }
    return new Outcome(nodes, values, total, shared, examples);
  }

  /**
   * What {@link #issueTogether} found.
   *
   * @param nodes each generator's name and node values ({@code a.0 {datacenter=0, worker=1}})
   * @param values each generator's node values alone
   * @param total how many IDs they issued together
   * @param shared how many IDs two of them both issued
   * @param examples a few of those
   */
  public record Outcome(
      List<String> nodes, List<String> values, long total, long shared, String examples) {
    /** Asserts that no two generators had the same node values or issued the same ID. */
    public Outcome assertApart() {
      assertThat(shared)
          .as("IDs issued twice, e.g. %s, of %d; nodes %s", examples, total, nodes)
          .isZero();
      assertThat(values).as("node values of %s", nodes).doesNotHaveDuplicates();
      return this;
    }

    @Override
    public String toString() {
      return total + " IDs, " + shared + " issued twice, nodes " + nodes;
    }
  }

  /** How many values two ascending arrays have in common. */
  public static long shared(long[] a, long[] b) {
    long common = 0;
    for (int i = 0, j = 0; i < a.length && j < b.length; ) {
      if (a[i] < b[j]) {
        i++;
      } else if (a[i] > b[j]) {
        j++;
      } else {
        common++;
        i++;
        j++;
      }
    }
    return common;
  }

  /** Up to {@code limit} values two ascending arrays have in common, for messages. */
  private static String sharedExamples(long[] a, long[] b, int limit) {
    long[] found = new long[limit];
    int n = 0;
    for (int i = 0, j = 0; i < a.length && j < b.length && n < limit; ) {
      if (a[i] < b[j]) {
        i++;
      } else if (a[i] > b[j]) {
        j++;
      } else {
        found[n++] = a[i];
        i++;
        j++;
      }
    }
    return Arrays.toString(Arrays.copyOf(found, n));
  }

  /** Its standard error so far, for assertion messages. */
  public String stderr() {
    try {
      return "stderr of " + prefix.getFileName() + ":\n" + Files.readString(err);
    } catch (IOException e) {
      return "no stderr: " + e;
    }
  }

  /** Kills it (SIGKILL), if it still runs. */
  @Override
  public void close() {
    process.destroyForcibly();
  }
}
