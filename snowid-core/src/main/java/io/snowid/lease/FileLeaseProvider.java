package io.snowid.lease;

import io.snowid.InvalidSettingException;
import java.time.Duration;
import java.util.Set;

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
  public Set<String> schemes() {
    return Set.of("file:");
  }

  /**
   * {@inheritDoc}
   *
   * @throws InvalidSettingException for any option left in the query (the directory has none of its
   *     own), naming it, before the directory is touched
   */
  @Override
  public LeaseCoordinator open(String uri) {
    int q = uri.indexOf('?');
    if (q >= 0) {
      for (String pair : uri.substring(q + 1).split("&", -1)) {
        int eq = pair.indexOf('=');
        String key = eq < 0 ? pair : pair.substring(0, eq);
        if (!key.isEmpty()) {
          throw new InvalidSettingException(
              "node",
              key,
              "file:DIR with the options "
                  + LeaseOptions.KEYS
                  + " only"
                  + InvalidSettingException.nearMiss(key, LeaseOptions.names())
                      .map(n -> "; did you mean " + n + "?")
                      .orElse(""));
        }
      }
    }
    return FileLeaseCoordinator.open(uri);
  }

  /**
   * 2 s: short, because a newcomer on an id without history waits one lease time before its first
   * ID (docs/node-ids.md, "The lease directory"); a renewal is a local write every 667 ms.
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
