package io.snowid.testkit;

import io.snowid.InvalidSettingException;
import io.snowid.lease.LeaseCoordinator;
import io.snowid.lease.LeaseCoordinatorProvider;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@code memory:NAME}: a lease registry in this JVM's memory, one per name, for tests of code that
 * takes a coordinator URI. It passes {@link LeaseCoordinatorContract} like any backend, and shows
 * what a backend is: this provider, a {@link LeaseCoordinator} and one contract subclass.
 *
 * <p>Every coordinator opened on one name shares that name's registry, as processes share a server;
 * the registry's clock is this JVM's wall clock. Not for production: it guards nothing across
 * processes.
 */
public final class MemoryLeaseProvider implements LeaseCoordinatorProvider {
  private static final Map<String, MemoryRegistry> REGISTRIES = new ConcurrentHashMap<>();

  /** For {@link java.util.ServiceLoader}. */
  public MemoryLeaseProvider() {}

  @Override
  public boolean supports(String uri) {
    return uri.startsWith("memory:");
  }

  @Override
  public Set<String> schemes() {
    return Set.of("memory:");
  }

  @Override
  public LeaseCoordinator open(String uri) {
    String name = uri.substring("memory:".length());
    if (!name.matches("[A-Za-z0-9._-]{1,100}")) {
      throw new InvalidSettingException("node", uri, "memory:NAME, NAME of A-Z a-z 0-9 . _ -");
    }
    return new MemoryLeaseCoordinator(
        REGISTRIES.computeIfAbsent(name, MemoryRegistry::new), System::currentTimeMillis);
  }
}
