package io.snowid.lease;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.TimeSource;
import io.snowid.node.NodeIdChain;
import io.snowid.node.NodeLease;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Opens lease coordinators by URI, through the {@link LeaseCoordinatorProvider}s that {@link
 * ServiceLoader} finds ({@code file:DIR} is built in), and leases node values from them.
 */
public final class LeaseCoordinators {
  /** The embedded default: a lease directory shared by every process of this host. */
  public static final String DEFAULT_FILE_URI =
      "file:" + Paths.get(System.getProperty("java.io.tmpdir"), "snowid-leases");

  private LeaseCoordinators() {}

  /**
   * Opens the coordinator of a URI (without lease options).
   *
   * @throws InvalidSettingException if no coordinator on the class or module path handles the URI
   */
  public static LeaseCoordinator open(String uri) {
    return provider(uri).open(uri);
  }

  /**
   * The provider that handles a URI: the first of the {@link LeaseCoordinatorProvider}s that {@link
   * ServiceLoader} finds (through the context class loader, then snowid's own) which supports it.
   *
   * @throws InvalidSettingException if none does
   */
  public static LeaseCoordinatorProvider provider(String uri) {
    List<String> found = new ArrayList<>();
    for (ClassLoader loader :
        new ClassLoader[] {
          Thread.currentThread().getContextClassLoader(), LeaseCoordinators.class.getClassLoader()
        }) {
      Iterator<LeaseCoordinatorProvider> providers =
          ServiceLoader.load(LeaseCoordinatorProvider.class, loader).iterator();
      for (int broken = 0; broken < 100; ) {
        LeaseCoordinatorProvider p;
        try {
          if (!providers.hasNext()) {
            break;
          }
          p = providers.next();
        } catch (ServiceConfigurationError e) {
          // A provider of another copy of snowid (another class loader) or a broken one: skip it;
          // the iterator goes on with the next.
          broken++;
          continue;
        }
        if (p.supports(uri)) {
          return p;
        }
        found.add(p.getClass().getName());
      }
    }
    throw new InvalidSettingException(
        "node",
        redact(uri),
        "the URI of a lease coordinator on the class path (file:DIR is built in; found "
            + String.join(", ", new LinkedHashSet<>(found))
            + ")");
  }

  /**
   * Leases node values from the coordinator of {@code uri}. Fields given in {@code explicit}, or by
   * the system properties and environment of {@link NodeIdChain#settings()}, are fixed and become
   * part of the namespace. Of the rest, a coordinator whose provider {@linkplain
   * LeaseCoordinatorProvider#leasesEveryNodeField() leases every node field} leases them all;
   * another ({@code file:}, one host) leases the {@code worker} field (or the last node field) and
   * takes the others from {@link NodeIdChain#standard()}. The option {@code fields=} chooses
   * explicitly.
   */
  public static NodeLease lease(
      String uri, Layout layout, Map<String, Long> explicit, TimeSource time) {
    LeaseCoordinatorProvider provider = provider(uri);
    LeaseOptions options = LeaseOptions.parse(uri, provider.defaultTtl());
    LeaseCoordinator coordinator = provider.open(options.base());
    try {
      return lease(
          coordinator, true, provider.leasesEveryNodeField(), options, layout, explicit, time);
    } catch (RuntimeException e) {
      coordinator.close();
      throw e;
    }
  }

  /**
   * Leases node values from an open coordinator, every node field that is not fixed (or those of
   * the option {@code fields=}); the caller keeps the coordinator open until the lease is closed.
   */
  public static NodeLease lease(
      LeaseCoordinator coordinator,
      LeaseOptions options,
      Layout layout,
      Map<String, Long> explicit,
      TimeSource time) {
    return lease(coordinator, false, true, options, layout, explicit, time);
  }

  private static NodeLease lease(
      LeaseCoordinator coordinator,
      boolean owns,
      boolean everyField,
      LeaseOptions options,
      Layout layout,
      Map<String, Long> explicit,
      TimeSource time) {
    LeaseNamespace ns = namespace(everyField, options, layout, explicit);
    return new LeaseHolder(coordinator, owns, options, time, layout, ns.fixed(), ns.leased());
  }

  /**
   * The namespace that {@link #lease(String, Layout, Map, TimeSource) lease(uri, layout, explicit,
   * …)} would lease from, and how its ids map to node values, without leasing anything: for an
   * operator's listing ({@code snowid leases}). It depends on the same inputs as the lease: the
   * URI's {@code namespace=} and {@code fields=}, the layout, the explicit values, and the system
   * properties and environment of {@link NodeIdChain#settings()} (and, for a coordinator of one
   * host, the node-id chain's values of the fields it does not lease), so run it with the settings
   * of the service it is about.
   *
   * @throws InvalidSettingException if no coordinator handles the URI or an option is invalid
   */
  public static LeaseNamespace namespace(String uri, Layout layout, Map<String, Long> explicit) {
    LeaseCoordinatorProvider provider = provider(uri);
    LeaseOptions options = LeaseOptions.parse(uri, provider.defaultTtl());
    return namespace(provider.leasesEveryNodeField(), options, layout, explicit);
  }

  private static LeaseNamespace namespace(
      boolean everyField, LeaseOptions options, Layout layout, Map<String, Long> explicit) {
    Map<String, Long> fixed = new LinkedHashMap<>(explicit);
    List<Layout.Field> unset = new ArrayList<>();
    for (Layout.Field f : layout.nodeFields()) {
      if (!fixed.containsKey(f.name())) {
        unset.add(f);
      }
    }
    fixed.putAll(NodeIdChain.settings().resolvePartial(layout, unset));
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
      if (!everyField && leased.size() > 1) {
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
    return LeaseNamespace.of(options.namespace(), layout, fixed, leased);
  }

  /** The URI without a password, for messages. */
  static String redact(String uri) {
    return uri.replaceAll("(//[^:/@]*:)[^@/]*@", "$1***@")
        .replaceAll("(?i)(password=)[^&]*", "$1***");
  }
}
