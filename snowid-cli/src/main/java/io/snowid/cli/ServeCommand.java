package io.snowid.cli;

import io.snowid.server.ServerConfig;
import io.snowid.server.SnowIdServer;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code snowid serve}: the HTTP ID service, until SIGTERM or Ctrl-C. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Serve IDs over HTTP: GET /id, /ids?count=N, /decode/{id}, /health, /metrics.",
      "Stops gracefully on SIGTERM: requests in flight finish, then the node lease is released."
    })
final class ServeCommand extends SnowIdSubcommand {
  @Option(
      names = "--bind",
      paramLabel = "ADDRESS",
      defaultValue = "${env:SNOWID_BIND:-127.0.0.1}",
      description =
          "The address to listen on; 0.0.0.0 for every interface (env SNOWID_BIND;"
              + " default ${DEFAULT-VALUE}).")
  String bind;

  @Option(
      names = {"-p", "--port"},
      paramLabel = "PORT",
      defaultValue = "${env:SNOWID_PORT:-8080}",
      description =
          "The TCP port, 0..65535; 0 picks one (env SNOWID_PORT; default ${DEFAULT-VALUE}).")
  int port;

  @Mixin LayoutOption layout;
  @Mixin NodeOption node;

  @Option(
      names = "--token",
      paramLabel = "TOKEN",
      defaultValue = "${env:SNOWID_TOKEN}",
      description =
          "Require 'Authorization: Bearer TOKEN' on every request (env SNOWID_TOKEN, which"
              + " unlike the option does not show in the process list).")
  String token;

  @Option(
      names = "--stop-timeout",
      paramLabel = "SECONDS",
      defaultValue = "${env:SNOWID_STOP_TIMEOUT:-10}",
      description =
          "How long a stop waits for requests in flight, 0..600 (env SNOWID_STOP_TIMEOUT;"
              + " default ${DEFAULT-VALUE}).")
  int stopTimeout;

  @Option(
      names = "--hello",
      hidden = true,
      description = "Serve 'hello' on every path instead of IDs: the ceiling for bench/http.sh.")
  boolean hello;

  private volatile SnowIdServer server;

  @Override
  public Integer call() throws InterruptedException {
    if (stopTimeout < 0 || stopTimeout > 600) {
      throw new io.snowid.InvalidSettingException("stop-timeout", stopTimeout, "0..600 seconds");
    }
    ServerConfig config =
        ServerConfig.defaults()
            .withBind(bind.trim())
            .withPort(port)
            .withLayout(layout.get().spec())
            .withNode(node.get())
            .withToken(token)
            .withStopTimeout(Duration.ofSeconds(stopTimeout))
            .withHelloWorld(hello);
    Logs.configure(true);
    SnowIdServer s = SnowIdServer.start(config).stopOnShutdown();
    Signals.onTerminate(s::stop); // stop in order: requests in flight, then the lease
    server = s;
    out().println("snowid serving on " + s.uri() + (hello ? " (hello world)" : ""));
    out().flush();
    s.join();
    return 0;
  }

  /** Stops the server started by {@link #call()}; for tests. */
  void stop() {
    SnowIdServer s = server;
    if (s != null) {
      s.stop();
    }
  }
}
