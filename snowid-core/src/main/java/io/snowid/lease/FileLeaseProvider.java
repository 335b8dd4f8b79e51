package io.snowid.lease;

import java.time.Duration;

/**
 * The {@code file:DIR} lease coordinator: a lease directory shared by the processes of one host.
 * Leases the {@code worker} field (or the last node field) with a lease time of 2 s.
 */
public final class FileLeaseProvider implements LeaseCoordinatorProvider {
  /** For {@link java.util.ServiceLoader}. */
  public FileLeaseProvider() {}

  @Override
  public boolean supports(String uri) {
    return uri.startsWith("file:");
  }

  @Override
  public LeaseCoordinator open(String uri) {
    return FileLeaseCoordinator.open(uri);
  }

  /**
   * 2 s: short, because a newcomer on an id without history waits one lease time before its first
   * ID (README, "The lease directory"); a renewal is a local write every 667 ms.
   */
  @Override
  public Duration defaultTtl() {
    return Duration.ofSeconds(2);
  }

  @Override
  public boolean leasesEveryNodeField() {
    return false;
  }
}
