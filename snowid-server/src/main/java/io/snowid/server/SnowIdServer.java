package io.snowid.server;

import io.snowid.Layout;
import io.snowid.SnowIdException;
import io.snowid.Snowflake;
import java.io.IOException;
import java.net.URI;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
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
 * <p>{@link #stop()} is graceful: the connector stops accepting, requests in flight finish (up to
 * {@link ServerConfig#stopTimeout()}), and only then is the generator closed, which releases its
 * node lease.
 */
public final class SnowIdServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SnowIdServer.class);

  /** The request line and all headers together: larger requests get 431 (or 414). */
  static final int MAX_REQUEST_HEADER_BYTES = 8 * 1024;

  private final ServerConfig config;
  private final Server jetty;
  private final ServerConnector connector;
  private final Snowflake generator;
  private final boolean ownsGenerator;
  private final ServiceMetrics metrics;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private boolean stopping;

  private SnowIdServer(ServerConfig config, Snowflake generator, boolean ownsGenerator) {
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
    this.connector = new ServerConnector(jetty, 1, 1, new HttpConnectionFactory(http));
    connector.setHost(config.bind());
    connector.setPort(config.port());
    connector.setIdleTimeout(30_000);
    jetty.addConnector(connector);
    Handler handler;
    if (generator == null) {
      this.metrics = null;
      handler = new HelloHandler();
    } else {
      this.metrics = new ServiceMetrics(generator);
      handler = new Router(generator, new BearerAuth(config.token()), metrics);
    }
    jetty.setHandler(new GracefulHandler(handler));
    jetty.setErrorHandler(new JsonErrorHandler());
    jetty.setStopTimeout(config.stopTimeout().toMillis());
    jetty.setStopAtShutdown(false); // stopOnShutdown() orders the stop before the lease release
  }

  /**
   * Builds a generator from the config's layout and node source and serves it; {@link #stop()}
   * closes that generator, releasing its lease.
   *
   * @throws io.snowid.InvalidSettingException for a bad layout or node source
   * @throws SnowIdException if the node id cannot be had or the port cannot be bound
   */
  public static SnowIdServer start(ServerConfig config) {
    if (config.helloWorld()) {
      return start(new SnowIdServer(config, null, false));
    }
    Snowflake generator =
        Snowflake.builder()
            .layout(Layout.preset(config.layout()))
            .nodeSource(config.node())
            .build();
    try {
      return start(new SnowIdServer(config, generator, true));
    } catch (RuntimeException e) {
      generator.close();
      throw e;
    }
  }

  /**
   * Serves an existing generator; the config's layout and node are not used, and {@link #stop()}
   * leaves the generator open (its owner closes it).
   */
  public static SnowIdServer start(ServerConfig config, Snowflake generator) {
    if (generator == null) {
      throw new io.snowid.InvalidSettingException("generator", null, "a Snowflake");
    }
    return start(config, generator, false);
  }

  /** Serves {@code generator}; closes it after stopping when {@code owns}. */
  static SnowIdServer start(ServerConfig config, Snowflake generator, boolean owns) {
    return start(new SnowIdServer(config, generator, owns));
  }

  private static SnowIdServer start(SnowIdServer server) {
    try {
      server.jetty.start();
    } catch (Exception e) {
      server.stop();
      String where = server.config.bind() + ":" + server.config.port();
      String why = e instanceof IOException && e.getCause() != null ? e.getCause().toString() : "";
      throw new SnowIdException(
          "cannot serve on " + where + ": " + e.getMessage() + (why.isEmpty() ? "" : " " + why), e);
    }
    LOG.info(
        "snowid serving on {} ({})",
        server.uri(),
        server.generator == null ? "hello world" : server.generator.nodeStatus().source());
    return server;
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

  /** The generator served; null for the hello-world server. */
  public Snowflake generator() {
    return generator;
  }

  /** Stops gracefully when the JVM is asked to exit (SIGTERM, Ctrl-C). */
  public SnowIdServer stopOnShutdown() {
    Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "snowid-server-stop"));
    return this;
  }

  /** Blocks until {@link #stop()} has finished, the generator closed included. */
  public void join() throws InterruptedException {
    stopped.await();
  }

  boolean isStopping() {
    return jetty.isStopping() || jetty.isStopped();
  }

  /**
   * Stops accepting, lets requests in flight finish (up to the stop timeout), then closes the
   * generator if this server built it. Idempotent.
   */
  public void stop() {
    synchronized (this) {
      if (stopping) {
        return;
      }
      stopping = true;
    }
    try {
      jetty.stop();
    } catch (Exception e) {
      LOG.warn("stopping the HTTP server failed: {}", e.toString());
    } finally {
      if (metrics != null) {
        metrics.close();
      }
      if (ownsGenerator) {
        generator.close();
      }
      LOG.info("snowid stopped");
      stopped.countDown();
    }
  }

  @Override
  public void close() {
    stop();
  }
}
