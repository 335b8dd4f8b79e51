package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code snowid serve} as its own process, as an operator runs it: a blank token is refused (issue
 * 12 item 2), the log says whether authentication is on, and a stop that cut a client off exits
 * non-zero (item 5).
 */
class ServeOperationsProcessTest {
  private static final String NODE = "static:worker=1,datacenter=1";

  @TempDir Path dir;

  @Test
  void serve_emptyTokenInTheEnvironment_exits2WithOneLineBeforeServing() throws Exception {
    Path err = dir.resolve("stderr.txt");
    ProcessBuilder pb =
        new ProcessBuilder(ServeProcess.command("--node", NODE)).redirectError(err.toFile());
    pb.environment().put("SNOWID_TOKEN", "");
    Process p = pb.start();
    boolean exited = p.waitFor(60, TimeUnit.SECONDS);
    if (!exited) {
      p.destroyForcibly(); // it served: the blank token was taken for none
    }

    assertThat(exited).as("exited instead of serving").isTrue();
    assertThat(p.exitValue()).isEqualTo(2);
    assertThat(p.getInputStream().readAllBytes()).isEmpty();
    assertThat(Files.readString(err).lines())
        .singleElement()
        .asString()
        .startsWith("snowid: token = (blank) is invalid");
  }

  @Test
  void serve_emptyTokenOption_exits2WithOneLine() throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = SnowIdCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err));
    CompletableFuture<Integer> exit =
        CompletableFuture.supplyAsync(
            () -> cl.execute("serve", "--port", "0", "--node", NODE, "--token="));
    Integer code;
    try {
      code = exit.get(60, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      ((ServeCommand) cl.getSubcommands().get("serve").getCommand()).stop();
      throw new AssertionError("it served, taking the blank token for none: " + out, e);
    }

    assertThat(code).isEqualTo(2);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString().lines())
        .singleElement()
        .asString()
        .startsWith("snowid: token = (blank)");
  }

  @Test
  void serve_withAndWithoutToken_logsWhetherAuthIsOn() throws Exception {
    String with;
    try (ServeProcess serve =
        ServeProcess.start(dir, Map.of("SNOWID_TOKEN", "s3cret"), "--node", NODE)) {
      assertThat(serve.terminate()).isZero();
      with = serve.stderr();
    }
    String without;
    try (ServeProcess serve = ServeProcess.start(dir, "--node", NODE)) {
      assertThat(serve.terminate()).isZero();
      without = serve.stderr();
    }

    assertThat(with).contains("INFO SnowIdServer - auth: bearer token").doesNotContain("s3cret");
    assertThat(without).contains("INFO SnowIdServer - auth: none");
  }

  /**
   * A client that pipelines requests for large batches and never reads them: the stop cannot finish
   * them, Jetty's shutdown fails the blocked response, and the exit code says so (it was 0).
   */
  @Test
  void serve_sigtermWithASlowReaderCutOff_exits1() throws Exception {
    try (ServeProcess serve = ServeProcess.start(dir, "--node", NODE, "--stop-timeout", "2");
        Socket client = new Socket()) {
      client.setReceiveBufferSize(4096);
      client.connect(new InetSocketAddress(serve.base.getHost(), serve.base.getPort()), 10_000);
      OutputStream out = client.getOutputStream();
      out.write(
          "GET /ids?count=100000 HTTP/1.1\r\nHost: x\r\n\r\n"
              .repeat(20)
              .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      InputStream in = client.getInputStream();
      assertThat(in.read()).as("the first answer began").isNotNegative(); // then never read on

      assertThat(serve.terminate()).isEqualTo(1);
      assertThat(serve.stderr()).contains("cut off");
    }
  }
}
