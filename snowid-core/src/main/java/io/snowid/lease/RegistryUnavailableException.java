package io.snowid.lease;

import io.snowid.node.NodeIdUnavailableException;

/**
 * The registry did not answer: refused or timed out a connection, or is still starting (a database
 * in recovery, a Redis loading its data). Unlike other failures it may pass by itself, so a lease
 * that starts retries it for the lease option {@code connectWait} (docs/design.md, "Waiting at
 * start"). An unknown host, a refused password or a bad setting is not this: it fails at once.
 */
public class RegistryUnavailableException extends NodeIdUnavailableException {
  private static final long serialVersionUID = 1L;

  public RegistryUnavailableException(String message) {
    super(message);
  }

  /**
   * Whether {@code e} or one of its causes says the registry is not answering yet: a connection
   * refused or timed out. For a coordinator that maps its client's exceptions; an unknown host is
   * not (it fails at once).
   */
  public static boolean notAnswering(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.net.UnknownHostException) {
        return false;
      }
    }
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof java.net.ConnectException
          || t instanceof java.net.SocketTimeoutException
          || t instanceof java.net.NoRouteToHostException
          || t instanceof java.util.concurrent.TimeoutException) {
        return true;
      }
    }
    return false;
  }
}
