package io.snowid.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.ManagedSelector;
import org.eclipse.jetty.io.SocketChannelEndPoint;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * A connection of the server, as {@link ConnectionGuard} sees it: whether a request is in progress
 * on it, and since when it has been receiving a request whose headers are not complete.
 *
 * <p>The header clock starts at the first byte read while no request is in progress, and stops when
 * the router (or Jetty's error handling) takes the request: a client that sends its headers one
 * line at a time, however slowly, is measured from its first line, not from its last byte as the
 * idle timeout is.
 */
final class GuardedEndPoint extends SocketChannelEndPoint {
  private static final long NONE = Long.MIN_VALUE;

  private final ConnectionGuard guard;
  private final ManagedSelector selector;
  private final long acceptOrder;
  private volatile long headersSince = NONE; // System.nanoTime() of the first byte; NONE: none
  private volatile boolean busy; // a request taken and not yet complete
  private volatile boolean writing; // and its response is being written

  GuardedEndPoint(
      SocketChannel channel,
      ManagedSelector selector,
      SelectionKey key,
      Scheduler scheduler,
      ConnectionGuard guard) {
    super(channel, selector, key, scheduler);
    this.selector = selector;
    this.guard = guard;
    this.acceptOrder = guard.acceptOrder(channel);
  }

  /** The selector this connection is registered with. */
  ManagedSelector selector() {
    return selector;
  }

  /** The place of this connection in the order connections were accepted. */
  long acceptOrder() {
    return acceptOrder;
  }

  /** The server's endpoint behind {@code request}, or null for another kind of connection. */
  static GuardedEndPoint of(Request request) {
    EndPoint endPoint = request.getConnectionMetaData().getConnection().getEndPoint();
    return endPoint instanceof GuardedEndPoint g ? g : null;
  }

  @Override
  public int fill(ByteBuffer buffer) throws IOException {
    int filled = super.fill(buffer);
    if (filled > 0 && !busy && headersSince == NONE) {
      headersSince = System.nanoTime();
    }
    return filled;
  }

  @Override
  public void onOpen() {
    super.onOpen();
    guard.opened(this);
  }

  @Override
  public void onClose(Throwable cause) {
    try {
      super.onClose(cause);
    } finally {
      guard.closed(this);
    }
  }

  /** A request's headers are complete and the router took it. */
  void requestBegins() {
    busy = true;
    writing = false;
    headersSince = NONE;
  }

  /** The request's response is being written: all that is left is for the client to read it. */
  void responseWriting() {
    writing = true;
  }

  /** The request's response completed or failed. */
  void requestEnds() {
    busy = false;
    writing = false;
  }

  /** A request's headers were parsed and Jetty answers it itself (an error). */
  void headersReceived() {
    headersSince = NONE;
  }

  /** No request in progress: the guard may close it to make room. */
  boolean idle() {
    return !busy;
  }

  /** A request in progress whose response is being written. */
  boolean writing() {
    return busy && writing;
  }

  /** Whether a request's headers have been arriving for longer than {@code timeoutNanos}. */
  boolean headersOverdue(long nowNanos, long timeoutNanos) {
    long since = headersSince;
    return since != NONE && !busy && nowNanos - since > timeoutNanos;
  }
}
