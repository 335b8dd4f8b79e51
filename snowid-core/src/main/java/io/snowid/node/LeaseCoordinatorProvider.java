package io.snowid.node;

/**
 * Opens {@link LeaseCoordinator}s for URIs of one scheme; found through {@link
 * java.util.ServiceLoader}, so the core never depends on a backend module.
 */
public interface LeaseCoordinatorProvider {
  /** Whether this provider opens the URI, e.g. {@code uri.startsWith("redis://")}. */
  boolean supports(String uri);

  /**
   * Opens a coordinator (connects, creates tables or keys it needs).
   *
   * @throws io.snowid.InvalidSettingException if the URI is malformed
   * @throws NodeIdUnavailableException if the coordinator cannot be reached
   */
  LeaseCoordinator open(String uri);
}
