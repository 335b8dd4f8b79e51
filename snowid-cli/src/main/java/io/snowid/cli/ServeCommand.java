package io.snowid.cli;

import io.snowid.Snowflake;
import io.snowid.server.ServerConfig;
import io.snowid.server.SnowIdServer;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code snowid serve}: the HTTP ID service, until SIGTERM or Ctrl-C. */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Serve IDs over HTTP: GET /id, /ids?count=N, /decode/{id}, /range, /health, /metrics.",
      "Stops gracefully on SIGTERM or Ctrl-C: requests in flight finish, then the node lease is"
          + " released. Exit code 0, or 1 if --stop-timeout cut requests off."
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
      converter = Ranged.Port.class,
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
              + " unlike the option does not show in the process list). A blank token is refused;"
              + " without one, every client that reaches the address may take IDs.")
  String token;

  @Option(
      names = "--backlog",
      paramLabel = "N",
      defaultValue = "${env:SNOWID_BACKLOG:-" + ServerConfig.DEFAULT_BACKLOG + "}",
      converter = Ranged.Backlog.class,
      description =
          "Connections the kernel queues before they are accepted, 1..65535; Linux caps it at"
              + " net.core.somaxconn (env SNOWID_BACKLOG; default ${DEFAULT-VALUE}).")
  int backlog;

  @Option(
      names = "--stop-timeout",
      paramLabel = "SECONDS",
      defaultValue = "${env:SNOWID_STOP_TIMEOUT:-10}",
      converter = Ranged.StopTimeout.class,
      description =
          "How long a stop waits for requests in flight, 0..600 (env SNOWID_STOP_TIMEOUT;"
              + " default ${DEFAULT-VALUE}).")
  int stopTimeout;

  @Option(
      names = "--max-connections",
      paramLabel = "N",
      defaultValue = "${env:SNOWID_MAX_CONNECTIONS}",
      converter = MaxConnections.class,
      description =
          "Connections open at once, 1..1000000; at the limit a new connection closes the oldest"
              + " one with no request in progress (env SNOWID_MAX_CONNECTIONS; default 10000, or"
              + " half the process's open-file limit if that is lower).")
  Integer maxConnections;

  @Option(
      names = "--header-timeout",
      paramLabel = "SECONDS",
      defaultValue = "${env:SNOWID_HEADER_TIMEOUT:-10}",
      converter = HeaderTimeout.class,
      description =
          "How long a request may take from its first byte to the end of its headers, 1..600;"
              + " the connection is closed after it (env SNOWID_HEADER_TIMEOUT; default"
              + " ${DEFAULT-VALUE}).")
  int headerTimeout;

  @Option(
      names = "--idle-timeout",
      paramLabel = "SECONDS",
      defaultValue = "${env:SNOWID_IDLE_TIMEOUT:-30}",
      converter = IdleTimeout.class,
      description =
          "How long a connection may stay without a byte read or written, 1..3600 (env"
              + " SNOWID_IDLE_TIMEOUT; default ${DEFAULT-VALUE}).")
  int idleTimeout;

  @Option(
      names = "--max-reserved-ahead",
      paramLabel = "MILLIS",
      defaultValue = "${env:SNOWID_MAX_RESERVED_AHEAD:-250}",
      converter = MaxReservedAhead.class,
      description =
          "How far ahead of the clock the requests waiting for their IDs may reserve together,"
              + " as milliseconds of the node's full rate, 1..60000; a request beyond it gets 429"
              + " with Retry-After (env SNOWID_MAX_RESERVED_AHEAD; default ${DEFAULT-VALUE}).")
  int maxReservedAhead;

  private volatile ServeShutdown shutdown;

  @Override
  public Integer call() {
    String givenToken = token;
    if (givenToken == null && System.getenv("SNOWID_TOKEN") != null) {
      givenToken = System.getenv("SNOWID_TOKEN"); // set but empty: refused below, not "no token"
    }
    ServerConfig config =
        ServerConfig.defaults()
            .withBind(bind.trim())
            .withPort(port)
            .withLayout(layout.forGenerating())
            .withNode(node.get())
            .withToken(givenToken)
            .withStopTimeout(Duration.ofSeconds(stopTimeout))
            .withBacklog(backlog)
            .withHeaderTimeout(Duration.ofSeconds(headerTimeout))
            .withIdleTimeout(Duration.ofSeconds(idleTimeout))
            .withMaxReservedAhead(Duration.ofMillis(maxReservedAhead));
    if (maxConnections != null) {
      config = config.withMaxConnections(maxConnections);
    }
    Logs.configure(true, verbose);
    // Before the generator takes a lease: a wrong address or a port in use fails with nothing held.
    SnowIdServer.checkAddress(config);
    // This command owns the server, the generator and its lease; ServeShutdown stops them in turn.
    Snowflake generator =
        Snowflake.builder().layout(config.layout()).nodeSource(config.node()).build();
    ServeShutdown s = new ServeShutdown(generator);
    s.install();
    SnowIdServer server;
    try {
      server = SnowIdServer.start(config, generator);
    } catch (RuntimeException e) {
      s.stop();
      s.uninstall();
      throw e;
    }
    s.serving(server);
    shutdown = s;
    out().println("snowid serving on " + server.uri());
    out().flush();
    int code = s.awaitStopped();
    s.uninstall();
    return code;
  }

  /** {@code --max-connections}. */
  static final class MaxConnections implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      return (int) Ranged.parse("max-connections", value, 1, ServerConfig.MAX_CONNECTIONS);
    }
  }

  /** {@code --header-timeout}, in seconds. */
  static final class HeaderTimeout implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      return (int) Ranged.parse("header-timeout", value, 1, 600);
    }
  }

  /** {@code --idle-timeout}, in seconds. */
  static final class IdleTimeout implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      return (int) Ranged.parse("idle-timeout", value, 1, 3600);
    }
  }

  /** {@code --max-reserved-ahead}, in milliseconds. */
  static final class MaxReservedAhead implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      return (int) Ranged.parse("max-reserved-ahead", value, 1, 60_000);
    }
  }

  /** Stops the service started by {@link #call()}, as the shutdown hook would; for tests. */
  void stop() {
    ServeShutdown s = shutdown;
    if (s != null) {
      s.stop();
    }
  }
}
