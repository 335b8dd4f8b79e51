package io.snowid.spring.boot.mybatis;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.testkit.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link LedgerMain} child JVM with this test's class path; Spring's log goes to {@code NAME.log}
 * and standard error to {@code NAME.err} in the directory given, standard output carries the
 * protocol only.
 */
final class LedgerJvm implements AutoCloseable {
  private static final long WITHIN_SECONDS = 180;

  private final String name;
  private final Process process;
  private final Path log;
  private final Path err;
  private final BufferedReader out;

  private LedgerJvm(String name, Process process, Path log, Path err) {
    this.name = name;
    this.process = process;
    this.log = log;
    this.err = err;
    this.out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  /** Starts one that inserts {@code rows} payments of payer {@code name} when told to. */
  static LedgerJvm start(Path dir, String name, int rows, List<String> properties)
      throws IOException {
    Path log = dir.resolve(name + ".log");
    Path err = dir.resolve(name + ".err");
    List<String> args = new ArrayList<>(List.of(name, Integer.toString(rows)));
    args.addAll(properties);
    args.add("logging.file.name=" + log);
    args.add("logging.threshold.console=OFF");
    args.add("spring.main.banner-mode=off");
    args.add("mybatis-plus.global-config.banner=false");
    ProcessBuilder child =
        ChildJvm.of(
                LedgerMain.class,
                List.of("-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"),
                args.toArray(new String[0]))
            .redirectError(err.toFile());
    return new LedgerJvm(name, child.start(), log, err);
  }

  /** Waits until its context has started (its lease held); its node values. */
  String awaitReady() throws IOException {
    String line = next();
    assertThat(line).as("%s's first line; %s", name, diagnostics()).startsWith("ready ");
    return line.substring("ready ".length());
  }

  /** Its next line of the protocol, without {@code ledger: }; null at the end. */
  private String next() throws IOException {
    for (String line = out.readLine(); line != null; line = out.readLine()) {
      if (line.startsWith("ledger: ")) {
        return line.substring("ledger: ".length());
      }
    }
    return null;
  }

  /** Tells it to insert. */
  void go() throws IOException {
    OutputStream in = process.getOutputStream();
    in.write('\n');
    in.flush();
  }

  /** Waits until it inserted its rows. */
  void awaitInserted(int rows) throws IOException {
    assertThat(next()).as("%s after go; %s", name, diagnostics()).isEqualTo("inserted " + rows);
  }

  /** Closes its standard input and waits for it to exit 0 (its lease released). */
  void stop() throws IOException, InterruptedException {
    process.getOutputStream().close();
    assertThat(process.waitFor(WITHIN_SECONDS, TimeUnit.SECONDS)).as(diagnostics()).isTrue();
    assertThat(process.exitValue()).as(diagnostics()).isZero();
  }

  /** Its standard error and the end of its log. */
  private String diagnostics() {
    return name + " stderr: " + tail(err, 4000) + "\n" + name + " log: " + tail(log, 4000);
  }

  private static String tail(Path file, int chars) {
    try {
      String s = Files.exists(file) ? Files.readString(file) : "(none)";
      return s.length() <= chars ? s : "…" + s.substring(s.length() - chars);
    } catch (IOException e) {
      return "(unreadable: " + e + ")";
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
