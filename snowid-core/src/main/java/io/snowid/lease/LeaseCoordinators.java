package io.snowid.lease;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.TimeSource;
import io.snowid.node.HostEnvironment;
import io.snowid.node.NodeIdChain;
import io.snowid.node.NodeLease;
import io.snowid.node.internal.LocalLeasePlan;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
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
        found.addAll(p.schemes());
      }
    }
    throw new InvalidSettingException("node", Secrets.scrub(uri), Schemes.unsupported(uri, found));
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
    LocalLeasePlan plan = null;
    if (!provider.leasesEveryNodeField() && !leased.isEmpty()) {
      boolean given = !sameDirectory(options.base(), defaultUri);
      String directory = Secrets.scrub(options.base());
      if (options.fields().isEmpty()) {
        plan = LocalLeasePlan.plan(layout, leased, directory, given, env);
        fixed.putAll(plan.values());
        leased = plan.leased();
        scanned = plan.scanned();
      } else {
        plan = LocalLeasePlan.chosen(layout, leased, directory, given, env);
      }
    }
    requireEveryNodeField(layout, fixed, leased, scanned, uri);
    // Fields without a source of their own (a host without IPv4) are leased like the rest: the
    // lease is on the packed node value, so any free value whose fixed bits match will do.
    List<Layout.Field> all = new ArrayList<>(leased);
    all.addAll(scanned);
    NodeLease lease = open(provider, options, time, layout, fixed, all);
    if (plan != null) {
      plan.logWarning();
    }
    return lease;
  }

  /**
   * Whether two {@code file:} URIs name one directory ({@code file:/a/}, {@code file:///a} and
   * {@code file:/a} do); other URIs compare as written.
   */
  static boolean sameDirectory(String a, String b) {
    if (!a.startsWith("file:") || !b.startsWith("file:")) {
      return a.equals(b);
    }
    return pathOf(a).equals(pathOf(b));
  }

  private static java.nio.file.Path pathOf(String fileUri) {
    String raw = fileUri.substring("file:".length());
    if (raw.startsWith("//")) {
      raw = raw.substring(2);
    }
    try {
      return java.nio.file.Paths.get(raw).toAbsolutePath().normalize();
    } catch (java.nio.file.InvalidPathException e) {
      return java.nio.file.Paths.get("/").resolve(fileUri); // never equal to a real directory's
    }
  }

  /**
   * Every node field needs a value: fixed, leased or scanned. A field left out of {@code fields=}
   * with no setting is a bad setting, named with the fields that need a value.
   */
  private static void requireEveryNodeField(
      Layout layout,
      Map<String, Long> fixed,
      List<Layout.Field> leased,
      List<Layout.Field> scanned,
      String uri) {
    List<String> missing = new ArrayList<>();
    for (Layout.Field f : layout.nodeFields()) {
      if (!fixed.containsKey(f.name()) && !leased.contains(f) && !scanned.contains(f)) {
        missing.add(f.name());
      }
    }
    if (!missing.isEmpty()) {
      throw new InvalidSettingException(
          "fields",
          Secrets.scrub(uri),
          "fields= with every node field of "
              + layout
              + " that has no value of its own; "
              + String.join(", ", missing)
              + " has none (add it to fields=, or set "
              + String.join(", ", missing.stream().map(n -> "snowid." + n + "-id").toList())
              + ")");
    }
  }

  private static NodeLease open(
      LeaseCoordinatorProvider provider,
      LeaseOptions options,
      TimeSource time,
      Layout layout,
      Map<String, Long> fixed,
      List<Layout.Field> leased) {
    return ConnectWait.retry(
        options.connectWait(),
        () -> {
          LeaseCoordinator coordinator = provider.open(options.base());
          try {
            return new LeaseHolder(coordinator, true, options, time, layout, fixed, leased);
          } catch (RuntimeException e) {
            coordinator.close();
            throw e;
          }
        });
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
    return ConnectWait.retry(
        options.connectWait(),
        () -> new LeaseHolder(coordinator, false, options, time, layout, fixed, leased));
  }

  /**
   * The namespace that {@link #lease(String, Layout, Map, TimeSource) lease(uri, layout, explicit,
   * …)} would lease from first, and how its ids map to node values, without leasing anything: for
   * an operator's listing ({@code snowid leases}). It depends on the same inputs as the lease: the
   * URI's {@code namespace=} and {@code fields=}, the layout, the explicit values, the system
   * properties and environment of {@link NodeIdChain#settings()} and, for a coordinator of one
   * host, its {@link LocalLeasePlan}; so run it with the settings of the service it is about. Where
   * the plan tries the values of a field in turn (a host without IPv4), this is the namespace of
   * the first value.
   *
   * @throws InvalidSettingException if no coordinator handles the URI or an option is invalid
   */
  public static LeaseNamespace namespace(String uri, Layout layout, Map<String, Long> explicit) {
    HostEnvironment env = HostEnvironment.system();
    LeaseCoordinatorProvider provider = provider(uri);
    LeaseOptions options = LeaseOptions.parse(uri, provider.defaultTtl());
    Map<String, Long> fixed = fixed(layout, explicit, env);
    List<Layout.Field> leased = leasedFields(layout, options, fixed);
    if (!provider.leasesEveryNodeField() && options.fields().isEmpty() && !leased.isEmpty()) {
      LocalLeasePlan plan =
          LocalLeasePlan.plan(
              layout,
              leased,
              Secrets.scrub(options.base()),
              !sameDirectory(options.base(), DEFAULT_FILE_URI),
              env);
      fixed.putAll(plan.values());
      leased = new ArrayList<>(plan.leased());
      leased.addAll(plan.scanned());
    }
    for (Layout.Field f : leased) {
      fixed.remove(f.name());
    }
    return LeaseNamespace.of(options.namespace(), layout, fixed, leased);
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
          throw new InvalidSettingException(
              "fields", name, "node fields of " + layout + " (" + nodeNames(layout) + ")");
        }
        if (leased.contains(f)) {
          throw new InvalidSettingException(
              "fields",
              String.join(",", options.fields()),
              "each node field once (" + f.name() + " is given twice)");
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

  private static String nodeNames(Layout layout) {
    return String.join(", ", layout.nodeFields().stream().map(Layout.Field::name).toList());
  }
}
