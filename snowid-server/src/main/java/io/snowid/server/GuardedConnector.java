package io.snowid.server;

import java.io.IOException;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ManagedSelector;
import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's connector: one acceptor, one selector, and every connection a {@link
 * GuardedEndPoint} under the {@link ConnectionGuard} (the connection limit and the header timeout),
 * which it sweeps periodically; failures to accept are logged by {@link AcceptFailures}, not one
 * stack trace per connection as Jetty does.
 */
final class GuardedConnector extends ServerConnector {
  private static final Logger LOG = LoggerFactory.getLogger(GuardedConnector.class);

  /** How often accept failures are logged at most. */
  static final Duration ACCEPT_FAILURE_LOG_INTERVAL = Duration.ofSeconds(10);

  /** How long the acceptor pauses after a failure, so that one that persists does not spin. */
  private static final long ACCEPT_RETRY_MILLIS = 100;

  private final ConnectionGuard guard;
  private final long sweepNanos;
  private final AcceptFailures acceptFailures =
      new AcceptFailures(ACCEPT_FAILURE_LOG_INTERVAL, System::nanoTime, LOG::warn);
  private volatile Scheduler.Task sweeper;

  GuardedConnector(
      Server server, ConnectionFactory factory, ConnectionGuard guard, Duration headerTimeout) {
    super(server, 1, 1, factory);
    this.guard = guard;
    // a sweep every quarter of the header timeout, between 10 ms and 1 s
    this.sweepNanos =
        Math.max(
            TimeUnit.MILLISECONDS.toNanos(10),
            Math.min(TimeUnit.SECONDS.toNanos(1), headerTimeout.toNanos() / 4));
  }

  ConnectionGuard guard() {
    return guard;
  }

  /**
   * Waits for room within the connection limit, then accepts one connection and counts it on this
   * thread, as soon as its descriptor exists: ServerConnector's own accept leaves that to the
   * selector thread, and a burst would be accepted past the limit before the count caught up
   * (EMFILE).
   */
  @Override
  public void accept(int acceptorID) throws IOException {
    try {
      guard.awaitRoom();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ClosedByInterruptException();
    }
    if (!(getTransport() instanceof ServerSocketChannel server) || !server.isOpen()) {
      return;
    }
    SocketChannel channel = server.accept();
    if (channel == null) {
      return; // a non-blocking channel with nothing to accept
    }
    guard.accepted(channel);
    try {
      channel.configureBlocking(false);
      configure(channel.socket());
      getSelectorManager().accept(channel);
    } catch (IOException | RuntimeException e) {
      guard.acceptFailed(channel);
      channel.close();
      throw e;
    }
  }

  @Override
  protected SelectorManager newSelectorManager(
      Executor executor, Scheduler scheduler, int selectors) {
    // called by ServerConnector's constructor: guard() is read only once connections come
    return new ServerConnectorManager(executor, scheduler, selectors) {
      @Override
      protected void onAcceptFailed(SelectableChannel channel, Throwable failure) {
        super.onAcceptFailed(channel, failure);
        guard().acceptFailed(channel);
      }
    };
  }

  @Override
  protected void onEndPointClosed(EndPoint endPoint) {
    super.onEndPointClosed(endPoint);
    if (endPoint instanceof GuardedEndPoint g && isRunning()) {
      // A socket closed while registered with the selector keeps its descriptor until the
      // selector's next select deregisters it: counted down two selector rounds later, so that one
      // select has run in between (an update submitted while updates run waits for the next round).
      g.selector().submit(first -> g.selector().submit(second -> guard.destroyed()));
    } else {
      guard.destroyed();
    }
  }

  @Override
  protected SocketChannelEndPoint newEndPoint(
      SocketChannel channel, ManagedSelector selector, SelectionKey key) {
    GuardedEndPoint endPoint = new GuardedEndPoint(channel, selector, key, getScheduler(), guard);
    endPoint.setIdleTimeout(getIdleTimeout());
    return endPoint;
  }

  @Override
  protected void doStart() throws Exception {
    super.doStart();
    scheduleSweep(); // still starting: isRunning() is false until this returns
  }

  @Override
  protected void doStop() throws Exception {
    Scheduler.Task task = sweeper;
    if (task != null) {
      task.cancel();
    }
    super.doStop();
  }

  private void scheduleSweep() {
    sweeper = getScheduler().schedule(this::sweep, sweepNanos, TimeUnit.NANOSECONDS);
  }

  private void sweep() {
    try {
      guard.sweep(System.nanoTime());
      acceptFailures.flush();
    } finally {
      if (isRunning()) {
        scheduleSweep();
      }
    }
  }

  @Override
  protected boolean handleAcceptFailure(Throwable failure) {
    if (!isRunning()
        || !isOpen()
        || isShutdown()
        || failure instanceof InterruptedException
        || failure instanceof ClosedByInterruptException) {
      return super.handleAcceptFailure(failure); // stopping: Jetty's, quiet then
    }
    acceptFailures.record(failure);
    try {
      Thread.sleep(ACCEPT_RETRY_MILLIS);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
