package io.snowid.server;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.util.Callback;

/**
 * One request, from the router taking it to its response: the callback Jetty gave the handler,
 * completed exactly once, and the only way to a response.
 *
 * <p>A response is written only after {@link #claim()}, which fails when the connection is gone
 * (the request is then ended without one, and counted as {@link #GONE}) or the request was ended
 * already (Jetty failed it). So no response is written twice, none after Jetty failed the request
 * (the write throws, and a second response would corrupt the connection's buffers), and none on a
 * closed connection: Jetty keeps parsing the requests a client pipelined before its connection
 * failed, and none of them is issued or answered.
 *
 * <p>Counts the request in flight ({@link InFlight}) and marks its connection busy ({@link
 * GuardedEndPoint}) until it completes.
 */
final class Exchange implements Callback {
  /** The status recorded for a request whose client was gone: no response was written. */
  static final int GONE = 499;

  private static final int OPEN = 0;
  private static final int WRITING = 1;
  private static final int ENDED = 2;
  private static final VarHandle STATE;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(Exchange.class, "state", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Callback callback;
  private final InFlight inFlight;
  private final GuardedEndPoint endPoint; // null off the server's own connector
  private volatile int state = OPEN;
  private volatile Unsent unsent; // written before unsentBytes
  private final AtomicLong unsentBytes = new AtomicLong(); // given back once, when the request ends

  Exchange(Callback callback, InFlight inFlight, GuardedEndPoint endPoint) {
    this.callback = callback;
    this.inFlight = inFlight;
    this.endPoint = endPoint;
    inFlight.begin();
    if (endPoint != null) {
      endPoint.requestBegins();
    }
  }

  /** Counts {@code bytes}, taken from {@code unsent}, as this request's until it ends. */
  void holdsUnsent(Unsent unsent, long bytes) {
    this.unsent = unsent;
    unsentBytes.set(bytes);
    if (state == ENDED) { // Jetty failed the request meanwhile: finish() may have run already
      giveUnsent();
    }
  }

  private void giveUnsent() {
    long n = unsentBytes.getAndSet(0);
    if (n > 0) {
      unsent.give(n);
    }
  }

  /** Whether the request may still be answered: not ended, and its connection open. */
  boolean connected() {
    return state == OPEN && (endPoint == null || endPoint.isOpen());
  }

  /** Whether no response is being written and the request has not ended. */
  boolean open() {
    return state == OPEN;
  }

  /**
   * Takes the response for writing: true once, if the request has not ended and its connection is
   * open; otherwise false, and a request whose connection is gone is ended without a response.
   */
  boolean claim() {
    if (endPoint != null && !endPoint.isOpen()) {
      gone();
      return false;
    }
    if (!STATE.compareAndSet(this, OPEN, WRITING)) {
      return false;
    }
    if (endPoint != null) {
      endPoint.notIdle(); // the write starts a fresh idle period: no idle timeout mid-write
      endPoint.responseWriting();
    }
    return true;
  }

  /** Ends the request without a response, its client gone; returns {@link #GONE}. */
  int gone() {
    abandon(new EofException("the client closed the connection"));
    return GONE;
  }

  /**
   * Ends the request without a response, unless one is being written (its write then completes or
   * fails it): for a client that is gone, or a request Jetty failed (the shutdown idle timeout of a
   * stop). It is aborted: Jetty closes the connection and writes no error response of its own.
   */
  void abandon(Throwable why) {
    if (STATE.compareAndSet(this, OPEN, ENDED)) {
      finish(true);
      callback.failed(new Request.Handler.AbortException(why.getMessage(), why));
    }
  }

  /** The response was written. */
  @Override
  public void succeeded() {
    if (end()) {
      finish(false);
      callback.succeeded();
    }
  }

  /** The response could not be written (or Jetty failed the request meanwhile). */
  @Override
  public void failed(Throwable x) {
    if (end()) {
      finish(true);
      callback.failed(x);
    }
  }

  private boolean end() {
    return (int) STATE.getAndSet(this, ENDED) != ENDED;
  }

  private void finish(boolean failed) {
    giveUnsent();
    inFlight.end(failed);
    if (endPoint != null) {
      endPoint.requestEnds();
    }
  }

  @Override
  public InvocationType getInvocationType() {
    return callback.getInvocationType();
  }
}
