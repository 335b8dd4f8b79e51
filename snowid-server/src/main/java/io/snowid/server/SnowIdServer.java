package io.snowid.server;

import io.snowid.Durations;
import io.snowid.InvalidSettingException;
import io.snowid.SnowIdException;
import io.snowid.Snowflake;
import io.snowid.lease.Secrets;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.component.Graceful;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP ID service: Jetty 12 core handlers, no servlet layer.
 *
 * <pre>{@code
 * try (SnowIdServer server = SnowIdServer.start(ServerConfig.defaults().withPort(0))) {
 *   URI base = server.uri(); // GET base + "id"
 * }
 * }</pre>
 *
 * <p>The server installs no JVM shutdown hook, and neither does Jetty here: whoever starts it owns
 * it and stops it, usually the program's own shutdown hook ({@code snowid serve} has one). {@link
 * #stop()} is graceful: the connector stops accepting, requests in flight finish (up to {@link
 * ServerConfig#stopTimeout()}), and only then is a generator the server built itself closed, which
 * releases its node lease.
 */
public final class SnowIdServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SnowIdServer.class);

  /** The request line and all headers together: larger requests get 431 (or 414). */
  static final int MAX_REQUEST_HEADER_BYTES = 8 * 1024;

  private final ServerConfig config;
  private final Server jetty;
  private final GuardedConnector connector;
  private final GracefulHandler graceful;
  private final Snowflake generator;
  private final boolean ownsGenerator;
  private final ServiceMetrics metrics;
  private final InFlight inFlight = new InFlight();
  private volatile URI servedAt; // null until started
  private Boolean drained; // the outcome of stop(); null until it ran (guarded by this)

  private SnowIdServer(
      ServerConfig config, Snowflake generator, boolean ownsGenerator, long unsentCap) {
    this.config = config;
    this.generator = generator;
    this.ownsGenerator = ownsGenerator;
    QueuedThreadPool pool = new QueuedThreadPool();
    pool.setName("snowid-http");
    this.jetty = new Server(pool);
    HttpConfiguration http = new HttpConfiguration();
    http.setSendServerVersion(false);
    http.setSendXPoweredBy(false);
    http.setRequestHeaderSize(MAX_REQUEST_HEADER_BYTES);
    ConnectionGuard guard = new ConnectionGuard(config.maxConnections(), config.headerTimeout());
    this.connector =
        new GuardedConnector(jetty, new HttpConnectionFactory(http), guard, config.headerTimeout());
    connector.setHost(config.bind());
    connector.setPort(config.port());
    connector.setIdleTimeout(config.idleTimeout().toMillis());
    connector.setAcceptQueueSize(config.backlog());
    // Jetty cuts a connection idle for this long once shutdown began (1 s unless set): a client
    // that stopped reading gets the whole stop timeout, as --stop-timeout says.
    connector.setShutdownIdleTimeout(config.stopTimeout().toMillis());
    jetty.addConnector(connector);
    this.metrics = new ServiceMetrics(generator);
    ReservedAhead reservedAhead = new ReservedAhead(config.maxReservedAhead(), generator.layout());
    metrics.bindHttp(pool, connector, inFlight);
    Unsent unsent = new Unsent(unsentCap);
    metrics.bindLimits(reservedAhead, unsent, guard);
    this.graceful =
        new GracefulHandler(
            new Router(
                generator,
                new BearerAuth(config.token()),
                metrics,
                inFlight,
                reservedAhead,
                unsent));
    jetty.setHandler(graceful);
    jetty.setErrorHandler(new JsonErrorHandler(metrics));
    jetty.setStopTimeout(0); // stop() drains first: Jetty's own stop closes what is left at once
    jetty.setStopAtShutdown(false); // no hook of Jetty's either: the owner stops the server
  }

  /**
   * Builds a generator from the config's layout and node source and serves it; {@link #stop()}
   * closes that generator, releasing its lease.
   *
   * @throws io.snowid.InvalidSettingException for a bad layout or node source
   * @throws SnowIdException if the node id cannot be had or the port cannot be bound
   */
  public static SnowIdServer start(ServerConfig config) {
    checkAddress(config); // before the generator takes a lease
    Snowflake generator =
        Snowflake.builder().layout(config.layout()).nodeSource(config.node()).build();
    try {
      return start(config, generator, true);
    } catch (RuntimeException e) {
      generator.close();
      throw e;
    }
  }

  /**
   * Serves an existing generator; the config's layout and node are not used, and {@link #stop()}
   * leaves the generator open: its owner closes it, after stopping the server.
   */
  public static SnowIdServer start(ServerConfig config, Snowflake generator) {
    if (generator == null) {
      throw new InvalidSettingException("generator", null, "a Snowflake");
    }
    return start(config, generator, false);
  }

  /** Serves {@code generator}; closes it after stopping when {@code owns}. */
  static SnowIdServer start(ServerConfig config, Snowflake generator, boolean owns) {
    return start(config, generator, owns, Unsent.defaultCap());
  }

  /** As above, with the cap on response bytes not yet sent ({@link Unsent}); for tests. */
  static SnowIdServer start(
      ServerConfig config, Snowflake generator, boolean owns, long unsentCap) {
    SnowIdServer server = new SnowIdServer(config, generator, owns, unsentCap);
    try {
      server.jetty.start();
    } catch (Exception e) {
      server.stop();
      throw cannotServe(config, e);
    }
    server.servedAt = server.uri();
    LOG.info(
        "snowid serving on {} ({})",
        server.servedAt,
        Secrets.scrub(generator.nodeStatus().source()));
    if (config.token() != null) {
      LOG.info("auth: bearer token (every request needs Authorization: Bearer <token>)");
    } else if (isLoopback(config.bind())) {
      LOG.info("auth: none (any client that can reach {} may take IDs)", server.servedAt);
    } else {
      LOG.warn(
          "auth: none, on {}: any client that can reach it may take IDs; set --token or"
              + " SNOWID_TOKEN",
          server.servedAt);
    }
    return server;
  }

  /**
   * Checks, before anything is leased, that the config's address can be served on: the bind address
   * resolves to an address of this host, and the port is free (unless 0). A program that builds its
   * generator before it starts the server ({@code snowid serve}) calls this first, so that a typo
   * in the address fails at once, not after a node id was taken. The port can still be taken
   * between this check and {@link #start}, which then fails the same way.
   *
   * @throws InvalidSettingException if the bind address does not resolve or is not this host's
   * @throws SnowIdException if the port is in use
   */
  public static void checkAddress(ServerConfig config) {
    InetAddress address;
    try {
      address = InetAddress.getByName(config.bind());
    } catch (UnknownHostException e) {
      throw new InvalidSettingException(
          "bind", Query.shorten(config.bind()), "an IP address or a host name that resolves");
    }
    try (ServerSocket probe = new ServerSocket()) {
      probe.setReuseAddress(true); // as Jetty binds: a port in TIME_WAIT is free
      probe.bind(new InetSocketAddress(address, config.port()), 1);
    } catch (IOException e) {
      throw cannotServe(config, e);
    }
  }

  /** A failure to listen, in words: bad input for a foreign address, else a runtime failure. */
  private static SnowIdException cannotServe(ServerConfig config, Exception e) {
    String where = config.bind() + ":" + config.port();
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof UnresolvedAddressException) {
        return new InvalidSettingException(
            "bind", Query.shorten(config.bind()), "an IP address or a host name that resolves");
      }
      if (t instanceof BindException b) {
        String why = String.valueOf(b.getMessage());
        if (why.contains("Cannot assign requested address")) {
          return new InvalidSettingException(
              "bind", Query.shorten(config.bind()), "an address of this host (or 0.0.0.0)");
        }
        return new SnowIdException("cannot serve on " + where + ": " + why, e);
      }
    }
    return new SnowIdException("cannot serve on " + where + ": " + e.getMessage(), e);
  }

  private static boolean isLoopback(String bind) {
    try {
      return InetAddress.getByName(bind).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /** The port listened on: the configured one, or the one picked for port 0. */
  public int port() {
    return connector.getLocalPort();
  }

  /** {@code http://host:port/}. */
  public URI uri() {
    String host = config.bind().contains(":") ? "[" + config.bind() + "]" : config.bind();
    return URI.create("http://" + host + ":" + port() + "/");
  }

  /** Connections open, as counted against the connection limit. */
  int openConnections() {
    return connector.guard().size();
  }

  /** Connections whose response is being written (their clients have not read it yet). */
  int writingConnections() {
    return connector.guard().writing();
  }

  /** The generator served. */
  public Snowflake generator() {
    return generator;
  }

  /** Whether {@link #stop()} began: requests are no longer taken. */
  boolean isStopping() {
    return graceful.isShutdown() || jetty.isStopping() || jetty.isStopped();
  }

  /**
   * Stops gracefully: stops accepting, lets requests in flight finish for up to the stop timeout,
   * then closes the generator if this server built it, whether or not they all finished.
   * Idempotent: a later call (from any thread) waits for the first one and returns its outcome.
   *
   * @return true if every request in flight finished; false if the stop timeout cut some off or
   *     stopping the HTTP server failed
   */
  /** How often a stop closes the connections left idle. */
  private static final long STOP_ROUND_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  public synchronized boolean stop() {
    if (drained != null) {
      return drained;
    }
    boolean ok = false;
    inFlight.stopping();
    try {
      ok = drain();
      jetty.stop();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      ok = false;
      LOG.warn("stopping the HTTP server was interrupted");
    } catch (Exception e) {
      ok = false;
      LOG.warn("stopping the HTTP server failed: {}", e.toString());
    } finally {
      drained = ok;
      metrics.close();
      if (ownsGenerator) {
        generator.close();
      }
    }
    if (servedAt == null) {
      return ok; // start failed; its exception tells why
    }
    if (ok) {
      LOG.info("snowid stopped serving on {}", servedAt);
    } else {
      LOG.warn(
          "snowid stopped serving on {}: requests still in flight after the stop timeout of {}"
              + " were cut off",
          servedAt,
          Durations.format(config.stopTimeout()));
    }
    return ok;
  }

  /**
   * Stops accepting connections and requests, and waits up to the stop timeout for the requests in
   * flight; true if none is left and none was cut off meanwhile (a response Jetty failed during the
   * drain, e.g. to a client that reads too slowly). Connections with no request in progress are
   * closed at once.
   */
  private boolean drain() throws InterruptedException {
    try {
      CompletableFuture<Void> shutdown = Graceful.shutdown(jetty);
      long deadline = System.nanoTime() + config.stopTimeout().toNanos();
      // Requests are no longer taken: a connection with none in progress waits for nothing. A
      // request that completes meanwhile leaves its connection idle: closed at the next round.
      while (!shutdown.isDone()) {
        connector.guard().closeIdle();
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          break;
        }
        try {
          shutdown.get(Math.min(left, STOP_ROUND_NANOS), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
          // another round
        }
      }
    } catch (ExecutionException e) {
      LOG.warn("waiting for requests in flight failed: {}", e.getCause().toString());
    }
    if (inFlight.cutOff() > 0) {
      LOG.warn("{} response(s) failed while the server stopped", inFlight.cutOff());
    }
    return graceful.getCurrentRequestCount() == 0 && inFlight.drained();
  }

  @Override
  public void close() {
    stop();
  }
}
