package io.snowid.lease;

import io.snowid.node.NodeIdUnavailableException;
import java.time.Duration;
import java.util.Set;

/**
 * Opens {@link LeaseCoordinator}s for the URIs of one scheme, and says how they are best used.
 * Found through {@link java.util.ServiceLoader} (declare it in {@code module-info} with {@code
 * provides} or in {@code META-INF/services}), so generic code never names a backend: the {@code
 * file:} coordinator of this module is registered this way like any other.
 */
public interface LeaseCoordinatorProvider {
  /** Whether this provider opens the URI, e.g. {@code uri.startsWith("redis://")}. */
  boolean supports(String uri);

  /**
   * The schemes this provider opens, as a user writes them ({@code redis://}, {@code
   * jdbc:postgresql:}, {@code file:}): named to a user whose URI no provider supports. Default
   * none.
   */
  default Set<String> schemes() {
    return Set.of();
  }

  /**
   * Opens a coordinator (connects, creates the tables, keys or folders it needs).
   *
   * @param uri the URI without snowid's lease options ({@link LeaseOptions#base()})
   * @throws io.snowid.InvalidSettingException if the URI is malformed
   * @throws NodeIdUnavailableException if the coordinator cannot be reached
   */
  LeaseCoordinator open(String uri);

  /** The lease time when the URI sets no {@code ttl}; default 10 s. */
  default Duration defaultTtl() {
    return Duration.ofSeconds(10);
  }

  /**
   * Whether the coordinator leases every node field that is not set explicitly (default true: a
   * registry shared by many hosts). False for a registry of one host, which leases only the {@code
   * worker} field (or the last node field) and takes the others from the node-id chain.
   */
  default boolean leasesEveryNodeField() {
    return true;
  }
}
