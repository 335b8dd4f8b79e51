package io.snowid.cli;

import io.snowid.Snowflake;
import io.snowid.server.SnowIdServer;
import java.lang.System.Logger.Level;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The one owner of {@code snowid serve}'s shutdown: one JVM shutdown hook (SIGTERM, Ctrl-C) stops,
 * in order, the HTTP server (requests in flight finish, up to the stop timeout), then the
 * generator, which releases its node lease. The generator and its lease are closed even when the
 * stop timed out. Nothing else in the process installs a hook: neither the server, nor Jetty, nor
 * the library.
 *
 * <p>The hook sets the exit code, 0 after a complete stop and 1 if the stop timeout cut requests
 * off, when the process is the {@code snowid} command's own ({@link SnowIdCommand#ownsProcess});
 * run inside another program, the command leaves the exit to it.
 */
final class ServeShutdown {
  private static final System.Logger LOG = System.getLogger("io.snowid.cli");

  static final int STOPPED = 0;
  static final int CUT_OFF = 1;

  private final Snowflake generator;
  private final AtomicBoolean begun = new AtomicBoolean();
  private final CountDownLatch done = new CountDownLatch(1);
  private volatile SnowIdServer server;
  private volatile int exitCode = CUT_OFF;
  private Thread hook;

  ServeShutdown(Snowflake generator) {
    this.generator = generator;
  }

  /** Installs the hook; from now on, an exit of the JVM stops what is registered here in order. */
  void install() {
    hook = new Thread(this::onExit, "snowid-stop");
    Runtime.getRuntime().addShutdownHook(hook);
  }

  /** The server to stop first. */
  void serving(SnowIdServer s) {
    this.server = s;
  }

  /** Stops everything in order; returns the exit code. Idempotent: a later call waits. */
  int stop() {
    if (begun.compareAndSet(false, true)) {
      run();
    }
    return awaitStopped();
  }

  /** Blocks until stopped (by {@link #stop()} or the hook); returns the exit code. */
  int awaitStopped() {
    boolean interrupted = false;
    while (true) {
      try {
        done.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    return exitCode;
  }

  /** Removes the hook after a stop that did not come from it; nothing while the JVM exits. */
  void uninstall() {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // the JVM is exiting: the hook runs or ran
    }
  }

  private void onExit() {
    if (!begun.compareAndSet(false, true)) {
      return; // stopped already
    }
    run();
    if (SnowIdCommand.ownsProcess) {
      // The JVM would exit with 128 + the signal's number; the outcome of the stop says more.
      Runtime.getRuntime().halt(exitCode);
    }
  }

  private void run() {
    boolean drained = false;
    try {
      SnowIdServer s = server;
      drained = s == null || s.stop();
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "stopping the server failed: " + e);
    } finally {
      try {
        generator.close(); // releases the node lease
        LOG.log(Level.INFO, "snowid stopped; node " + generator.nodeStatus().detail());
      } catch (RuntimeException e) {
        LOG.log(Level.WARNING, "closing the generator failed: " + e);
        drained = false;
      } finally {
        exitCode = drained ? STOPPED : CUT_OFF;
        done.countDown();
      }
    }
  }
}
