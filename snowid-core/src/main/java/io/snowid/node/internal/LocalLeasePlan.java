package io.snowid.node.internal;

import io.snowid.Layout;
import io.snowid.node.HostEnvironment;
import io.snowid.node.NodeIdSource;
import io.snowid.node.UnsafeEnvironmentException;
import java.lang.System.Logger.Level;
import java.net.Inet4Address;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How a lease coordinator that serves one host only (the {@code file:} lease directory) gets node
 * values: which fields it leases, and where the others come from. Decided from what the host is
 * ({@link HostEnvironment}), so that the default is safe where it works and loud where it cannot
 * be:
 *
 * <ul>
 *   <li>it leases the {@code worker} field (or the last node field); the others come from {@link
 *       NodeIdSource} providers of the {@link ServiceLoader}, then from the host's IPv4 low bits
 *       with a WARN that names the settings replacing them;
 *   <li>without a usable IPv4 address, their values are leased too, by trying each in turn ({@link
 *       #scanned()}): the host is then the whole fleet, and safe;
 *   <li>in a container, with the default lease directory (which no other container shares), a short
 *       WARN, once per process, says what tells it apart and links the page that explains the
 *       fixes; none where the settings fix every field but the leased one;
 *   <li>inside Kubernetes, a StatefulSet ordinal takes every field the settings left, and nothing
 *       is leased but the combination itself (one process per pod and node id); without an ordinal
 *       it refuses ({@link UnsafeEnvironmentException}) unless only the leased field was left and
 *       the lease directory was given explicitly.
 * </ul>
 *
 * Used by one-host coordinators' leases ({@code io.snowid.lease.LeaseCoordinators}); an application
 * has no need of it.
 */
public final class LocalLeasePlan {
  private static final System.Logger LOG = System.getLogger("io.snowid.node");

  /** Where the container WARN points: the page that explains it and the settings that end it. */
  static final String CONTAINERS_DOC = "docs/node-ids.md#containers";

  /** The container WARN is one line of at most this many characters. */
  static final int MAX_CONTAINER_WARNING = 200;

  private static final AtomicBoolean WARNED = new AtomicBoolean();

  private final Map<String, Long> values;
  private final List<Layout.Field> leased;
  private final List<Layout.Field> scanned;
  private final String warning;

  private LocalLeasePlan(
      Map<String, Long> values,
      List<Layout.Field> leased,
      List<Layout.Field> scanned,
      String warning) {
    this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    this.leased = List.copyOf(leased);
    this.scanned = List.copyOf(scanned);
    this.warning = warning;
  }

  /**
   * Logs the WARN of this plan, if any. Called once the lease works: a lease that fails prints its
   * one error, not a warning about a choice it never used.
   */
  public void logWarning() {
    if (warning != null) {
      // once per process: every generator of a process is in the same place, and a command that
      // builds several would repeat it; the later ones at DEBUG, for whoever looks for them
      LOG.log(WARNED.compareAndSet(false, true) ? Level.WARNING : Level.DEBUG, warning);
    }
  }

  /**
   * The plan of a lease whose fields the operator chose (the option {@code fields=}): all of them
   * leased from the lease directory, with the same refusal and WARNs as {@link #plan} where the
   * directory cannot tell processes apart.
   *
   * @throws UnsafeEnvironmentException inside Kubernetes with the pod's own lease directory
   */
  public static LocalLeasePlan chosen(
      Layout layout,
      List<Layout.Field> fields,
      String directory,
      boolean directoryGiven,
      HostEnvironment env) {
    Platform platform = Platform.detect(env);
    String warning = null;
    if (platform.isKubernetes()) {
      if (!directoryGiven) {
        throw new UnsafeEnvironmentException(
            "a Kubernetes pod (" + platform.evidence() + ")",
            "the option fields="
                + Spread.names(fields)
                + " leases them from the lease directory "
                + directory
                + ", which is the pod's own, so every pod would lease the same values",
            "lease node ids across pods with snowid.node / SNOWID_NODE = redis://… (or"
                + " jdbc:postgresql://…), or drop fields= and run it as a StatefulSet");
      }
      warning = podDirectoryWarning(directory, fields);
    } else if (platform.isContainer() && !directoryGiven) {
      warning = containerWarning(platform, "nothing tells it apart from other containers");
    }
    return new LocalLeasePlan(Map.of(), fields, List.of(), warning);
  }

  /** An explicit lease directory inside a pod that is not a StatefulSet's. */
  private static String podDirectoryWarning(String directory, List<Layout.Field> leased) {
    return "running in a Kubernetes pod that is not a StatefulSet's, with the lease directory "
        + directory
        + ": "
        + Spread.names(leased)
        + " is leased from it, which tells pods apart only if every pod that issues IDs with these"
        + " settings uses that very directory (one volume on one node); a directory of the pod's"
        + " own does not, and two pods then issue duplicate IDs. Lease node ids across pods with"
        + " snowid.node / SNOWID_NODE = redis://… (or jdbc:postgresql://…), or run it as a"
        + " StatefulSet";
  }

  /**
   * Plans the node fields that no setting fixed.
   *
   * @param layout the layout
   * @param unset the node fields no explicit value or setting fixed, in layout order (not empty)
   * @param directory the lease directory, for messages (e.g. {@code file:/tmp/snowid-leases})
   * @param directoryGiven whether the operator gave the lease directory (not the default, which
   *     every container has for itself)
   * @param env the host
   * @throws UnsafeEnvironmentException inside Kubernetes without a StatefulSet ordinal (see above)
   * @throws io.snowid.InvalidSettingException if the ordinal does not fit the fields left to it
   */
  public static LocalLeasePlan plan(
      Layout layout,
      List<Layout.Field> unset,
      String directory,
      boolean directoryGiven,
      HostEnvironment env) {
    List<NodeIdSource> providers = new ArrayList<>();
    ServiceLoader.load(NodeIdSource.class).forEach(providers::add);
    return plan(layout, unset, directory, directoryGiven, env, providers);
  }

  static LocalLeasePlan plan(
      Layout layout,
      List<Layout.Field> unset,
      String directory,
      boolean directoryGiven,
      HostEnvironment env,
      List<NodeIdSource> providers) {
    if (unset.isEmpty()) {
      return new LocalLeasePlan(Map.of(), List.of(), List.of(), null);
    }
    Layout.Field keep =
        unset.stream()
            .filter(f -> f.name().equals("worker"))
            .findFirst()
            .orElse(unset.get(unset.size() - 1));
    Map<String, Long> values = new LinkedHashMap<>();
    for (NodeIdSource provider : providers) {
      List<Layout.Field> wanted = without(unset, values, keep);
      if (wanted.isEmpty()) {
        break;
      }
      Map<String, Long> found = provider.resolve(layout, wanted);
      for (Layout.Field f : wanted) {
        Long v = found.get(f.name());
        if (v != null) {
          values.put(f.name(), v);
          LOG.log(Level.INFO, "node field {0} = {1} from {2}", f.name(), v, provider.name());
        }
      }
    }
    List<Layout.Field> others = without(unset, values, keep);
    Platform platform = Platform.detect(env);
    if (platform.isKubernetes()) {
      StatefulSetSource.Reading pod = StatefulSetSource.read(env);
      List<Layout.Field> left = new ArrayList<>(others);
      left.add(keep);
      left.sort((a, b) -> Integer.compare(b.shift(), a.shift()));
      if (pod.pod() != null) {
        Map<String, Long> ordinal = StatefulSetSource.spread(pod.pod(), left);
        values.putAll(ordinal);
        LOG.log(
            Level.INFO,
            "node "
                + describe(ordinal)
                + " from the ordinal "
                + pod.pod().ordinal()
                + " of StatefulSet pod "
                + pod.name()
                + "; "
                + directory
                + " keeps two processes of this pod from using it at once");
        String warning =
            trimmedVariable(env, "POD_NAME") == null
                ? "the StatefulSet ordinal "
                    + pod.pod().ordinal()
                    + " comes from the host name "
                    + pod.name()
                    + " because POD_NAME is not set: in a pod with hostNetwork: true the host name"
                    + " is the node's (worker-2 reads as ordinal 2 of StatefulSet worker), and two"
                    + " such pods issue duplicate IDs. Set POD_NAME from the downward API"
                    + " (env: - name: POD_NAME, valueFrom: fieldRef: fieldPath: metadata.name)"
                : null;
        return new LocalLeasePlan(values, List.of(), List.of(), warning);
      }
      if (!others.isEmpty() || !directoryGiven) {
        throw kubernetesRefusal(
            env,
            platform,
            directoryGiven ? others : left,
            directoryGiven
                ? "the field(s) "
                    + Spread.names(others)
                    + " would come from the pod's IPv4 address, which other pods share by chance"
                : "the lease directory "
                    + directory
                    + " is the pod's own, so every pod would lease the same "
                    + keep.name());
      }
      return new LocalLeasePlan(
          values, List.of(keep), List.of(), podDirectoryWarning(directory, List.of(keep)));
    }
    boolean containerAlone = platform.isContainer() && !directoryGiven;
    if (others.isEmpty()) {
      List<Layout.Field> set = new ArrayList<>(layout.nodeFields());
      set.removeAll(unset);
      String warning = null;
      if (containerAlone && set.isEmpty() && values.isEmpty()) {
        warning = containerWarning(platform, "nothing tells it apart from other containers");
      } else if (containerAlone) {
        // the values set for it tell it apart, as far as the operator gave every container its own
        LOG.log(
            Level.INFO,
            "in a container with its own lease directory: {0} is leased there, so {1} must differ"
                + " between containers (see {2})",
            keep.name(),
            set.isEmpty() ? describe(values) : settingNames(set),
            CONTAINERS_DOC);
      }
      return new LocalLeasePlan(values, List.of(keep), List.of(), warning);
    }
    Optional<Inet4Address> ip = Ipv4Source.usableAddress(env);
    if (ip.isPresent()) {
      Map<String, Long> fromIp = Spread.over(others, Ipv4Source.number(ip.get()));
      values.putAll(fromIp);
      int bits = Spread.bits(others);
      String address = ip.get().getHostAddress();
      String warning =
          containerAlone
              ? containerWarning(
                  platform,
                  "only " + describe(fromIp) + " from IPv4 " + address + " tells it apart")
              : "node "
                  + describe(fromIp)
                  + ", the low "
                  + bits
                  + " bits of this host's IPv4 address "
                  + address
                  + " ("
                  + keep.name()
                  + " leased from "
                  + directory
                  + ", so processes on this host never share one): two hosts whose addresses share"
                  + " those bits issue duplicate IDs. On more than one host, set "
                  + settingNames(others)
                  + " to a different value on each, or lease every node field from a network"
                  + " coordinator: snowid.node / SNOWID_NODE = redis://… (or jdbc:postgresql://…)";
      return new LocalLeasePlan(values, List.of(keep), List.of(), warning);
    }
    // No IPv4: lease the other fields too, by trying each value in turn (see LeaseCoordinators).
    String warning = null;
    if (containerAlone) {
      warning = containerWarning(platform, "nothing tells it apart (no IPv4 address)");
    } else if (Ipv4Source.hasRoutableIpv6(env)) {
      warning =
          "this host has no IPv4 address, only IPv6: every node field ("
              + Spread.names(unset)
              + ") is leased from "
              + directory
              + ", which is safe while no other host issues IDs into the same place. On more than"
              + " one host, set "
              + settingNames(others)
              + " to a different value on each, or lease node ids from a network coordinator:"
              + " snowid.node / SNOWID_NODE = redis://… (or jdbc:postgresql://…)";
    } else {
      LOG.log(
          Level.INFO,
          "no IPv4 address: every node field ({0}) is leased from {1}; this host is then the"
              + " only one that can issue IDs in this namespace",
          Spread.names(unset),
          directory);
    }
    return new LocalLeasePlan(values, List.of(keep), others, warning);
  }

  /**
   * The WARN of a container that leases from a directory of its own: one line of at most {@link
   * #MAX_CONTAINER_WARNING} characters, the why and the fixes on the page it links.
   */
  private static String containerWarning(Platform platform, String apart) {
    String tail =
        " with its own lease directory, "
            + apart
            + ": duplicate IDs possible; see "
            + CONTAINERS_DOC;
    String line = "in a container (" + platform.evidence() + ")" + tail;
    return line.length() <= MAX_CONTAINER_WARNING ? line : "in a container" + tail;
  }

  /** The WARN this plan logged, if any: what it cannot make safe and the settings that would. */
  Optional<String> warning() {
    return Optional.ofNullable(warning);
  }

  /** The node values it decided (not leased); the leased and scanned fields are not among them. */
  public Map<String, Long> values() {
    return values;
  }

  /** The fields the coordinator leases: the worker (or last) field, or none. */
  public List<Layout.Field> leased() {
    return leased;
  }

  /**
   * Fields that have no source on this host (no IPv4 address): the caller leases them as well, by
   * trying their values in turn, each with a lease of {@link #leased()} in the namespace those
   * values name. So a process that takes them from its IPv4 address and one that has none lease
   * from the same namespaces of one directory, and never share a node id.
   */
  public List<Layout.Field> scanned() {
    return scanned;
  }

  static UnsafeEnvironmentException kubernetesRefusal(
      HostEnvironment env, Platform platform, List<Layout.Field> fields, String how) {
    StatefulSetSource.Reading pod = StatefulSetSource.read(env);
    return new UnsafeEnvironmentException(
        "a Kubernetes pod (" + platform.evidence() + ")",
        "the node field(s) "
            + Spread.names(fields)
            + " have no value that differs between pods: the pod is not a StatefulSet's ("
            + pod.whyNot()
            + "), and "
            + how,
        "lease node ids across pods with snowid.node / SNOWID_NODE = redis://… (or"
            + " jdbc:postgresql://…), run it as a StatefulSet, or give each pod its own "
            + settingNames(fields));
  }

  private static String trimmedVariable(HostEnvironment env, String name) {
    String v = env.variable(name);
    return v == null || v.isBlank() ? null : v.trim();
  }

  /** {@code datacenter=2, worker=7}. */
  static String describe(Map<String, Long> values) {
    StringBuilder sb = new StringBuilder();
    values.forEach(
        (k, v) -> sb.append(sb.length() == 0 ? "" : ", ").append(k).append('=').append(v));
    return sb.toString();
  }

  /**
   * The settings of these fields: {@code snowid.datacenter-id / SNOWID_DATACENTER_ID}, or for
   * several {@code snowid.datacenter-id and snowid.worker-id (SNOWID_DATACENTER_ID,
   * SNOWID_WORKER_ID)}.
   */
  public static String settingNames(List<Layout.Field> fields) {
    List<String> properties = new ArrayList<>();
    List<String> variables = new ArrayList<>();
    for (Layout.Field f : fields) {
      properties.add(PropertySource.key(f, false));
      variables.add(PropertySource.key(f, true));
    }
    if (fields.size() == 1) {
      return properties.get(0) + " / " + variables.get(0);
    }
    return String.join(" and ", properties) + " (" + String.join(", ", variables) + ")";
  }

  private static List<Layout.Field> without(
      List<Layout.Field> fields, Map<String, Long> have, Layout.Field keep) {
    List<Layout.Field> out = new ArrayList<>();
    for (Layout.Field f : fields) {
      if (!f.equals(keep) && !have.containsKey(f.name())) {
        out.add(f);
      }
    }
    return out;
  }
}
