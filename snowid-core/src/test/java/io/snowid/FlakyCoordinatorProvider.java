package io.snowid;

import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinatorProvider;
import io.snowid.lease.LeaseCoordinators;
import java.net.ConnectException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Set;

/**
 * A test coordinator for {@code flaky:DIR}: unreachable while the file {@code DIR.down} exists
 * (fails with a {@link SnowIdException} caused by a {@link ConnectException}), otherwise the {@code
 * file:DIR} coordinator. Used by {@link SnowIdRetryTest}.
 */
public final class FlakyCoordinatorProvider implements LeaseCoordinatorProvider {
  static final String SCHEME = "flaky:";

  /** The service loader's. */
  public FlakyCoordinatorProvider() {}

  @Override
  public boolean supports(String uri) {
    return uri.startsWith(SCHEME);
  }

  @Override
  public Set<String> schemes() {
    return Set.of(SCHEME);
  }

  @Override
  public LeaseCoordinator open(String uri) {
    String dir = uri.substring(SCHEME.length());
    Path down = Paths.get(dir + ".down");
    if (Files.exists(down)) {
      throw new SnowIdException(
          "coordinator " + uri + " unreachable", new ConnectException("Connection refused"));
    }
    return LeaseCoordinators.open("file:" + dir);
  }
}
