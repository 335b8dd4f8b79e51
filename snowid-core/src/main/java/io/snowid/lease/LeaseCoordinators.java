package io.snowid.lease;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.TimeSource;
import io.snowid.node.HostEnvironment;
import io.snowid.node.LocalLeasePlan;
import io.snowid.node.NodeIdChain;
import io.snowid.node.NodeLease;
import io.snowid.node.Spread;
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
  /**
   * The embedded default: a lease directory shared by every process of this host, whatever its user
   * (created mode 1777 in the sticky temporary folder).
   */
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
   * another ({@code file:}, one host) leases them as {@link LocalLeasePlan} decides from what the
   * host is: the {@code worker} field (or the last node field), the others from the host's IPv4
   * address or, without one, leased too. The option {@code fields=} chooses explicitly.
   *
   * @throws io.snowid.node.UnsafeEnvironmentException inside Kubernetes, where a one-host
   *     coordinator cannot tell pods apart (see {@link LocalLeasePlan})
   */
  public static NodeLease lease(
      String uri, Layout layout, Map<String, Long> explicit, TimeSource time) {
    return lease(uri, layout, explicit, time, HostEnvironment.system(), DEFAULT_FILE_URI);
  }

  /**
   * {@link #lease(String, Layout, Map, TimeSource)} on the host {@code env}, where {@code
   * defaultUri} is the lease directory nobody chose (for a test, any).
   */
  static NodeLease lease(
      String uri,
      Layout layout,
      Map<String, Long> explicit,
      TimeSource time,
      HostEnvironment env,
      String defaultUri) {
    LeaseCoordinatorProvider provider = provider(uri);
    LeaseOptions options = LeaseOptions.parse(uri, provider.defaultTtl());
    Map<String, Long> fixed = fixed(layout, explicit, env);
    List<Layout.Field> leased = leasedFields(layout, options, fixed);
    List<Layout.Field> scanned = List.of();
    if (!provider.leasesEveryNodeField() && options.fields().isEmpty() && !leased.isEmpty()) {
      LocalLeasePlan plan =
          LocalLeasePlan.plan(
              layout, leased, redact(options.base()), !options.base().equals(defaultUri), env);
      fixed.putAll(plan.values());
      leased = plan.leased();
      scanned = plan.scanned();
    }
    if (scanned.isEmpty()) {
      return open(provider, options, time, layout, fixed, leased);
    }
    /*
     * No source for the scanned fields: try their values in turn, each with a lease of the
     * leased field in the namespace those values name, the namespace a process that takes them
     * from its IPv4 address uses. So the two kinds of process never share a node id on one
     * directory, and a full namespace (all its workers held) moves on to the next value.
     */
    long count = 1L << Spread.bits(scanned);
    for (long n = 0; n < count; n++) {
      Map<String, Long> attempt = new LinkedHashMap<>(fixed);
      attempt.putAll(Spread.over(scanned, n));
      try {
        return open(provider, options, time, layout, attempt, leased);
      } catch (NodeIdsExhaustedException full) {
        // every value of the leased field is held under these values: try the next ones
      }
    }
    throw new NodeIdsExhaustedException(
        options.namespace(),
        count << Spread.bits(leased),
        "(" + Spread.names(scanned) + " and " + Spread.names(leased) + ") in " + redact(uri));
  }

  private static NodeLease open(
      LeaseCoordinatorProvider provider,
      LeaseOptions options,
      TimeSource time,
      Layout layout,
      Map<String, Long> fixed,
      List<Layout.Field> leased) {
    LeaseCoordinator coordinator = provider.open(options.base());
    try {
      return new LeaseHolder(coordinator, true, options, time, layout, fixed, leased);
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
    Map<String, Long> fixed = fixed(layout, explicit, HostEnvironment.system());
    List<Layout.Field> leased = leasedFields(layout, options, fixed);
    return new LeaseHolder(coordinator, false, options, time, layout, fixed, leased);
  }

  /** The explicit values, then those of the settings for the fields still unset. */
  private static Map<String, Long> fixed(
      Layout layout, Map<String, Long> explicit, HostEnvironment env) {
    Map<String, Long> fixed = new LinkedHashMap<>(explicit);
    List<Layout.Field> unset = new ArrayList<>();
    for (Layout.Field f : layout.nodeFields()) {
      if (!fixed.containsKey(f.name())) {
        unset.add(f);
      }
    }
    fixed.putAll(NodeIdChain.settings(env).resolvePartial(layout, unset));
    return fixed;
  }

  /**
   * The fields of the option {@code fields=} (removed from {@code fixed}), else every node field
   * not fixed, in layout order.
   */
  private static List<Layout.Field> leasedFields(
      Layout layout, LeaseOptions options, Map<String, Long> fixed) {
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
    }
    return leased;
  }

  /** The URI without a password, for messages. */
  static String redact(String uri) {
    return uri.replaceAll("(//[^:/@]*:)[^@/]*@", "$1***@")
        .replaceAll("(?i)(password=)[^&]*", "$1***");
  }
}
