package io.snowid.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the {@code ./snowid} and {@code curl} command lines of the docs' shell blocks, each with
 * {@code bash -c} exactly as written (after the block's rewrites), and checks their exit codes.
 *
 * <p>{@code ./snowid} is a script in the working directory that runs the command from the test
 * class path ({@code java -cp … io.snowid.cli.SnowIdCommand}), as the repository's {@code ./snowid}
 * runs the jar it built, with {@code java.io.tmpdir} in a directory of the run's own (so the
 * default lease directory is the run's, not the host's) and no {@code SNOWID_*} variables from the
 * test's environment. {@code ./snowid serve} is started with {@code SNOWID_PORT=0} (a free port),
 * serves the {@code curl} lines after it in its block — {@code localhost:8080} and {@code
 * 127.0.0.1:8080} rewritten to its port — and gets SIGTERM at the end of the block, after which it
 * must exit 0. {@code curl} lines of a block without a {@code serve} line go to a {@code ./snowid
 * serve} the run starts once. A {@code curl} line must get a 2xx answer, or the status the block
 * shows after it ({@code HTTP/1.1 400 Bad Request}).
 */
final class DocShellExamples implements AutoCloseable {
  private static final Set<String> SCRIPT = Set.of("sh", "bash", "shell");
  private static final Set<String> TRANSCRIPT = Set.of("console", "");
  private static final Pattern SERVING = Pattern.compile("snowid serving on http://\\S+:(\\d+)");
  private static final Pattern PORT_8080 =
      Pattern.compile("\\b(localhost|127\\.0\\.0\\.1):8080\\b");
  private static final Pattern STATUS = Pattern.compile("doc-status (\\d{3})");
  private static final Pattern SHOWN_STATUS = Pattern.compile("^HTTP/\\S+ (\\d{3})\\b");

  private final Path work;
  private final Duration timeout;
  private final Path hostTmp;
  private Server shared;

  /** A command line of a block, with the output the block shows after it. */
  private record Command(int index, String text, List<String> shown) {}

  /** A running {@code ./snowid serve} and the block line that started it. */
  private record Server(Process process, int port, Path stderr, String at, String text) {}

  /** A {@code ./snowid serve} line that did not start serving. */
  private static final class NotServing extends Exception {
    private static final long serialVersionUID = 1L;

    NotServing(String message) {
      super(message);
    }
  }

  DocShellExamples(Path work, Duration timeout) throws IOException {
    this.work = work;
    this.timeout = timeout;
    this.hostTmp = Files.createDirectories(work.resolve("host-tmp"));
    Path snowid = work.resolve("snowid");
    Files.writeString(
        snowid,
        "#!/bin/sh\n"
            + "exec \"$DOC_JAVA\" $SNOWID_JAVA_OPTS -Djava.io.tmpdir=\"$DOC_TMP\""
            + " -cp \"$DOC_CP\" io.snowid.cli.SnowIdCommand \"$@\"\n");
    Files.setPosixFilePermissions(snowid, PosixFilePermissions.fromString("rwx------"));
    Files.writeString(
        work.resolve(".curlrc"),
        "silent\nshow-error\nwrite-out = \"%{stderr}doc-status %{http_code}\\n\"\nmax-time = "
            + timeout.toSeconds()
            + "\n");
  }

  /** Whether {@code b} is a shell block: a script, or a transcript with {@code $ } lines. */
  static boolean isShell(DocBlock b) {
    String lang = b.lang().toLowerCase(Locale.ROOT);
    return SCRIPT.contains(lang)
        || lang.equals("console")
        || (lang.isEmpty() && b.lines().stream().anyMatch(l -> l.startsWith("$ ")));
  }

  /** Runs the commands of {@code b}; returns its failures, each starting with {@code FILE:LINE}. */
  List<String> run(DocBlock b) throws IOException, InterruptedException {
    List<String> found = new ArrayList<>();
    Path tmp = Files.createTempDirectory(work, "block");
    List<Command> commands = commands(b, b.text(tmp).split("\n", -1));
    Server server = null;
    int ran = 0;
    for (Command c : commands) {
      String at = b.at(c.index());
      if (isCommand(c.text(), "./snowid serve")) {
        if (server != null) {
          stop(server).ifPresent(found::add);
        }
        server = null;
        try {
          server = start(c.text(), at);
        } catch (NotServing e) {
          found.add(e.getMessage());
        }
        ran++;
      } else if (isCommand(c.text(), "./snowid") || isCommand(c.text(), "curl")) {
        ran++;
        Server target = server;
        if (target == null && c.text().startsWith("curl")) {
          try {
            target = shared();
          } catch (NotServing e) {
            found.add(at + ": `" + c.text() + "` not run: " + e.getMessage());
            continue;
          }
        }
        execute(c, at, b, target).ifPresent(found::add);
      } else if (b.skips().stream().noneMatch(s -> c.text().startsWith(s))) {
        found.add(
            at
                + ": `"
                + c.text()
                + "` is not run (only ./snowid and curl lines are): mark the block"
                + " <!-- illustrative: why --> or the command <!-- test: skip `PREFIX` why -->");
      }
    }
    if (server != null) {
      stop(server).ifPresent(found::add);
    }
    if (ran == 0 && (SCRIPT.contains(b.lang()) || TRANSCRIPT.contains(b.lang()))) {
      found.add(
          b.file()
              + ":"
              + b.line()
              + ": nothing in this block runs: mark it <!-- illustrative: why -->");
    }
    return found;
  }

  private static boolean isCommand(String text, String command) {
    return text.equals(command) || text.startsWith(command + " ");
  }

  /**
   * The command lines: in a script every line that is not blank or a comment (with its {@code \}
   * continuations), in a transcript the {@code $ } lines.
   */
  private static List<Command> commands(DocBlock b, String[] lines) {
    List<Command> commands = new ArrayList<>();
    boolean script = SCRIPT.contains(b.lang().toLowerCase(Locale.ROOT));
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i];
      String text;
      if (script) {
        if (l.isBlank() || l.trim().startsWith("#")) {
          continue;
        }
        text = l.trim();
      } else if (l.startsWith("$ ")) {
        text = l.substring(2).trim();
      } else {
        continue;
      }
      int start = i;
      while (text.endsWith("\\") && i + 1 < lines.length) {
        text = text.substring(0, text.length() - 1) + " " + lines[++i].trim();
      }
      List<String> shown = new ArrayList<>();
      for (int j = i + 1; !script && j < lines.length && !lines[j].startsWith("$ "); j++) {
        shown.add(lines[j]);
      }
      commands.add(new Command(start, text, shown));
    }
    return commands;
  }

  private ProcessBuilder bash(String text) {
    ProcessBuilder pb = new ProcessBuilder("bash", "-c", text).directory(work.toFile());
    Map<String, String> env = pb.environment();
    env.keySet().removeIf(k -> k.startsWith("SNOWID_"));
    env.put("DOC_JAVA", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    env.put("DOC_CP", System.getProperty("java.class.path"));
    env.put("DOC_TMP", hostTmp.toString());
    env.put("CURL_HOME", work.toString());
    return pb;
  }

  private Optional<String> execute(Command c, String at, DocBlock b, Server server)
      throws IOException, InterruptedException {
    String text = c.text();
    if (server != null) {
      text = PORT_8080.matcher(text).replaceAll("$1:" + server.port());
    }
    Path out = Files.createTempFile(work, "out", ".txt");
    Path err = Files.createTempFile(work, "err", ".txt");
    Process p = bash(text).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      p.destroyForcibly().waitFor();
      return Optional.of(
          at + ": `" + c.text() + "` did not end within " + timeout.toSeconds() + " s");
    }
    int expected =
        b.exits().stream()
            .filter(e -> c.text().startsWith(e.prefix()))
            .mapToInt(DocBlock.Exit::code)
            .findFirst()
            .orElse(0);
    String stderr = Files.readString(err);
    if (p.exitValue() != expected) {
      return Optional.of(
          at
              + ": `"
              + c.text()
              + "` exited "
              + p.exitValue()
              + " (expected "
              + expected
              + "): "
              + DocProcesses.tail(stderr));
    }
    if (c.text().startsWith("curl")) {
      return status(c, at, stderr);
    }
    return Optional.empty();
  }

  /** A curl line's HTTP status against the one the block shows, else any 2xx. */
  private static Optional<String> status(Command c, String at, String stderr) {
    Matcher got = STATUS.matcher(stderr);
    if (!got.find()) {
      return Optional.of(at + ": `" + c.text() + "` gave no HTTP status");
    }
    int status = Integer.parseInt(got.group(1));
    Optional<Integer> shown =
        c.shown().stream()
            .map(SHOWN_STATUS::matcher)
            .filter(Matcher::find)
            .map(m -> Integer.parseInt(m.group(1)))
            .findFirst();
    boolean ok = shown.isPresent() ? shown.get() == status : status / 100 == 2;
    if (ok) {
      return Optional.empty();
    }
    return Optional.of(
        at
            + ": `"
            + c.text()
            + "` answered HTTP "
            + status
            + " (expected "
            + shown.map(String::valueOf).orElse("2xx")
            + ")");
  }

  /** Starts a {@code ./snowid serve} line and waits until it serves. */
  private Server start(String text, String at)
      throws IOException, InterruptedException, NotServing {
    Path err = Files.createTempFile(work, "serve", ".txt");
    ProcessBuilder pb = bash("exec " + text).redirectError(err.toFile());
    pb.environment().put("SNOWID_PORT", "0");
    Process p = pb.start();
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    CompletableFuture<Integer> port =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                for (String l = out.readLine(); l != null; l = out.readLine()) {
                  Matcher m = SERVING.matcher(l);
                  if (m.find()) {
                    return Integer.parseInt(m.group(1));
                  }
                }
              } catch (IOException e) {
                return -1;
              }
              return -1;
            });
    int serving;
    try {
      serving = port.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      serving = -1;
    }
    if (serving < 0) {
      p.destroyForcibly().waitFor();
      throw new NotServing(
          at
              + ": `"
              + text
              + "` did not start serving: "
              + DocProcesses.tail(Files.readString(err)));
    }
    return new Server(p, serving, err, at, text);
  }

  /** SIGTERM; a complete stop exits 0. */
  private Optional<String> stop(Server s) throws IOException, InterruptedException {
    s.process().destroy();
    if (!s.process().waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      s.process().destroyForcibly().waitFor();
      return Optional.of(s.at() + ": `" + s.text() + "` did not stop on SIGTERM");
    }
    if (s.process().exitValue() != 0) {
      return Optional.of(
          s.at()
              + ": `"
              + s.text()
              + "` exited "
              + s.process().exitValue()
              + " on SIGTERM (expected 0): "
              + DocProcesses.tail(Files.readString(s.stderr())));
    }
    return Optional.empty();
  }

  /** The run's own {@code ./snowid serve}, for curl lines of blocks that start none. */
  private Server shared() throws IOException, InterruptedException, NotServing {
    if (shared == null) {
      String at = "the docs test's own ./snowid serve";
      shared = start("./snowid serve", at);
      awaitHealthy(shared, at);
    }
    return shared;
  }

  /**
   * Waits until {@code /health} answers 200: a new lease is held only once the clock passed the
   * node's high-water mark, and the transcripts show a service that is up. HTTP/1.0, so that no
   * idle connection is left open.
   */
  private void awaitHealthy(Server s, String at) throws InterruptedException, NotServing {
    long deadline = System.nanoTime() + timeout.toNanos();
    String status = "nothing";
    while (System.nanoTime() < deadline) {
      try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), s.port())) {
        socket.setSoTimeout((int) timeout.toMillis());
        socket
            .getOutputStream()
            .write("GET /health HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        status =
            new BufferedReader(
                    new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                .readLine();
      } catch (IOException e) {
        status = e.toString();
      }
      if (status != null && status.startsWith("HTTP/1.1 200")) {
        return;
      }
      Thread.sleep(100);
    }
    throw new NotServing(at + ": /health answered " + status + " until the timeout");
  }

  /** Stops the run's own server, if it started one; the failure of its stop, if any. */
  Optional<String> finish() throws IOException, InterruptedException {
    if (shared == null) {
      return Optional.empty();
    }
    Server s = shared;
    shared = null;
    return stop(s);
  }

  @Override
  public void close() {
    if (shared != null) {
      shared.process().destroyForcibly();
    }
  }
}
