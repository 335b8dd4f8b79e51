package io.snowid.node.internal;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.node.HostEnvironment;
import io.snowid.node.NodeIdSource;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ordinal of a Kubernetes StatefulSet pod ({@code web-3} → 3), spread over the node fields no
 * earlier source set. Only inside Kubernetes ({@code KUBERNETES_SERVICE_HOST} is set), and only for
 * a pod name that a StatefulSet gives: {@code <statefulset>-<ordinal>}, the ordinal written without
 * leading zeros, the pod's host name equal to its name ({@code POD_NAME}, when the downward API
 * sets it), and the StatefulSet's own name when {@code snowid.statefulset} / {@code
 * SNOWID_STATEFULSET} gives it.
 */
public final class StatefulSetSource implements NodeIdSource {
  /*
   * Pods of a Deployment, ReplicaSet, Job or DaemonSet are named by generateName: the owner's name,
   * a dash and five characters from "bcdfghjklmnpqrstvwxz2456789" (no vowels, no 0, 1 or 3). Five
   * of those may all be digits (web-5d8f7c9b4-24567), and such a name looks like an ordinal. An
   * ordinal is never written that way unless it is at least 22222, so such a suffix counts only
   * when the operator names the StatefulSet. Every other all-digit suffix (1 to 4 digits, a 0, 1
   * or 3 among five, six or more) cannot have been generated.
   */
  static final String PROPERTY = "snowid.statefulset";
  static final String VARIABLE = "SNOWID_STATEFULSET";

  private static final Pattern POD =
      Pattern.compile("([a-z0-9]([-a-z0-9.]*[a-z0-9])?)-(0|[1-9][0-9]{0,8})");
  private static final Pattern GENERATED = Pattern.compile("[2456789]{5}");

  private final HostEnvironment env;

  public StatefulSetSource(HostEnvironment env) {
    this.env = env;
  }

  /** A pod of a StatefulSet: its name, the StatefulSet's and its ordinal. */
  record Pod(String name, String statefulSet, long ordinal) {}

  /**
   * What the pod's name says: {@code pod} when it is a StatefulSet's, else {@code whyNot}.
   *
   * @param name the pod's name, or null when it is unknown
   */
  record Reading(String name, Pod pod, String whyNot) {}

  /**
   * Reads this pod's name.
   *
   * @throws InvalidSettingException if {@code SNOWID_STATEFULSET} names a StatefulSet this pod is
   *     not in
   */
  static Reading read(HostEnvironment env) {
    String k8s = env.variable("KUBERNETES_SERVICE_HOST");
    if (k8s == null || k8s.isBlank()) {
      return new Reading(null, null, "not inside Kubernetes (KUBERNETES_SERVICE_HOST is not set)");
    }
    String podName = trimmed(env.variable("POD_NAME"));
    String hostName = trimmed(env.variable("HOSTNAME"));
    if (hostName == null) {
      hostName = trimmed(env.hostName());
    }
    String name = podName != null ? podName : hostName;
    if (name == null) {
      return new Reading(null, null, "its name is unknown (neither POD_NAME nor HOSTNAME is set)");
    }
    if (podName != null && hostName != null && !podName.equals(hostName)) {
      return new Reading(
          name,
          null,
          "its host name "
              + hostName
              + " is not its pod name "
              + podName
              + ", as it would be in a StatefulSet");
    }
    Matcher m = POD.matcher(name);
    if (!m.matches()) {
      return new Reading(name, null, "its name " + name + " is not <statefulset>-<ordinal>");
    }
    String statefulSet = m.group(1);
    String ordinal = m.group(3);
    String property = trimmed(System.getProperty(PROPERTY));
    String declared = property != null ? property : trimmed(env.variable(VARIABLE));
    if (declared != null) {
      if (!declared.equals(statefulSet)) {
        throw new InvalidSettingException(
            property != null ? PROPERTY : VARIABLE,
            declared,
            "the name of this pod's StatefulSet: pod "
                + name
                + " is not "
                + declared
                + "-<ordinal>");
      }
    } else if (GENERATED.matcher(ordinal).matches()) {
      return new Reading(
          name,
          null,
          "its name "
              + name
              + " ends in five characters that Kubernetes may have generated for a Deployment's"
              + " pod (if it is StatefulSet "
              + statefulSet
              + "'s pod, say so with "
              + VARIABLE
              + "="
              + statefulSet
              + ")");
    }
    return new Reading(name, new Pod(name, statefulSet, Long.parseLong(ordinal)), null);
  }

  private static String trimmed(String s) {
    return s == null || s.isBlank() ? null : s.trim();
  }

  @Override
  public String name() {
    return "StatefulSet ordinal";
  }

  @Override
  public String lookedAt(Layout.Field field) {
    return "StatefulSet ordinal (POD_NAME or HOSTNAME inside Kubernetes)";
  }

  @Override
  public Map<String, Long> resolve(Layout layout, List<Layout.Field> wanted) {
    Pod pod = read(env).pod();
    return pod == null ? Map.of() : spread(pod, wanted);
  }

  /**
   * The pod's ordinal spread over {@code fields}.
   *
   * @throws InvalidSettingException naming the replica count and the fields' limit if it does not
   *     fit
   */
  static Map<String, Long> spread(Pod pod, List<Layout.Field> fields) {
    int bits = Spread.bits(fields);
    long replicas = 1L << bits;
    if (pod.ordinal() >= replicas) {
      throw new InvalidSettingException(
          "StatefulSet ordinal of pod " + pod.name(),
          pod.ordinal(),
          "0.."
              + (replicas - 1)
              + ": StatefulSet "
              + pod.statefulSet()
              + " has at least "
              + (pod.ordinal() + 1)
              + " replicas, but the node fields left to the ordinal ("
              + Spread.names(fields)
              + ", "
              + bits
              + " bits) tell at most "
              + replicas
              + " apart; run at most "
              + replicas
              + " replicas, use a layout with more node bits, or lease node ids from a network"
              + " coordinator (snowid.node / SNOWID_NODE = redis://…)");
    }
    return Spread.over(fields, pod.ordinal());
  }
}
