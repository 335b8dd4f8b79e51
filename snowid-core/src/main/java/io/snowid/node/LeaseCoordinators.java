package io.snowid.node;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.TimeSource;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Opens lease coordinators by URI ({@code file:DIR} built in; {@code redis://…}, {@code jdbc:…}
 * from modules found by {@link ServiceLoader}) and leases node values from them.
 */
public final class LeaseCoordinators {
  /** The embedded default: a lease directory shared by every process of this host. */
  public static final String DEFAULT_FILE_URI =
      "file:" + Paths.get(System.getProperty("java.io.tmpdir"), "snowid-leases");

  private LeaseCoordinators() {}

  /**
   * Opens the coordinator of a URI (without lease options).
   *
   * @throws InvalidSettingException if no coordinator handles the URI
   */
  public static LeaseCoordinator open(String uri) {
    if (uri.startsWith("file:")) {
      return FileLeaseCoordinator.open(uri);
    }
    for (LeaseCoordinatorProvider p : ServiceLoader.load(LeaseCoordinatorProvider.class)) {
      if (p.supports(uri)) {
        return p.open(uri);
      }
    }
    throw new InvalidSettingException(
        "node",
        redact(uri),
        "file:DIR, or redis://… / jdbc:… with snowid-redis / snowid-jdbc on the class path");
  }

  /**
   * Leases node values from the coordinator of {@code uri}. Fields given in {@code explicit}, or by
   * the system properties and environment of {@link NodeIdChain}, are fixed and become part of the
   * namespace; of the rest, {@code file:} leases the {@code worker} field (or the last node field)
   * and takes the others from the whole chain, network coordinators lease all of them. The option
   * {@code fields=} chooses explicitly.
   */
  public static NodeLease lease(
      String uri, Layout layout, Map<String, Long> explicit, TimeSource time) {
    boolean file = uri.startsWith("file:");
    LeaseOptions options =
        LeaseOptions.parse(uri, file ? Duration.ofSeconds(2) : Duration.ofSeconds(10));
    LeaseCoordinator coordinator = open(options.base());
    try {
      return lease(coordinator, true, options, layout, explicit, time);
    } catch (RuntimeException e) {
      coordinator.close();
      throw e;
    }
  }

  /** Leases node values from an open coordinator; the caller keeps it open until release. */
  public static NodeLease lease(
      LeaseCoordinator coordinator,
      LeaseOptions options,
      Layout layout,
      Map<String, Long> explicit,
      TimeSource time) {
    return lease(coordinator, false, options, layout, explicit, time);
  }

  private static NodeLease lease(
      LeaseCoordinator coordinator,
      boolean owns,
      LeaseOptions options,
      Layout layout,
      Map<String, Long> explicit,
      TimeSource time) {
    Map<String, Long> fixed = new LinkedHashMap<>(explicit);
    List<Layout.Field> unset = new ArrayList<>();
    for (Layout.Field f : layout.nodeFields()) {
      if (!fixed.containsKey(f.name())) {
        unset.add(f);
      }
    }
    fixed.putAll(
        NodeIdChain.of(
                List.of(
                    PropertySource.systemProperties(), PropertySource.environment(System.getenv())))
            .resolvePartial(layout, unset));
    List<Layout.Field> leased = new ArrayList<>();
    if (!options.fields().isEmpty()) {
      for (String name : options.fields()) {
        Layout.Field f = layout.field(name.trim()).filter(Layout.Field::isNode).orElse(null);
        if (f == null) {
          throw new InvalidSettingException("fields", name, "node fields of " + layout);
        }
        fixed.remove(f.name());
        leased.add(f);
      }
    } else {
      for (Layout.Field f : layout.nodeFields()) {
        if (!fixed.containsKey(f.name())) {
          leased.add(f);
        }
      }
      if (coordinator instanceof FileLeaseCoordinator && leased.size() > 1) {
        Layout.Field keep =
            leased.stream()
                .filter(f -> f.name().equals("worker"))
                .findFirst()
                .orElse(leased.get(leased.size() - 1));
        List<Layout.Field> others = new ArrayList<>(leased);
        others.remove(keep);
        fixed.putAll(NodeIdChain.standard().resolve(layout, others, Map.of()));
        leased = List.of(keep);
      }
    }
    for (Layout.Field f : leased) {
      fixed.remove(f.name());
    }
    return new LeaseHolder(coordinator, owns, options, time, layout, fixed, leased);
  }

  /** The URI without a password, for messages. */
  static String redact(String uri) {
    return uri.replaceAll("(//[^:/@]*:)[^@/]*@", "$1***@")
        .replaceAll("(?i)(password=)[^&]*", "$1***");
  }
}
