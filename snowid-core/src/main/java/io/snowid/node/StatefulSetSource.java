package io.snowid.node;

import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The ordinal of a Kubernetes StatefulSet pod ({@code web-3} → 3), spread over the node fields no
 * earlier source set. Only inside Kubernetes ({@code KUBERNETES_SERVICE_HOST} is set), so that an
 * ordinary host name ending in digits is never taken for an ordinal.
 */
final class StatefulSetSource implements NodeIdSource {
  private static final Pattern ORDINAL = Pattern.compile(".+-(\\d{1,9})");
  private final Map<String, String> env;

  StatefulSetSource(Map<String, String> env) {
    this.env = env;
  }

  @Override
  public String name() {
    return "StatefulSet ordinal";
  }

  @Override
  public String lookedAt(Layout.Field field) {
    return "StatefulSet ordinal (HOSTNAME inside Kubernetes)";
  }

  @Override
  public Map<String, Long> resolve(Layout layout, List<Layout.Field> wanted) {
    String host = env.get("HOSTNAME");
    if (env.get("KUBERNETES_SERVICE_HOST") == null || host == null) {
      return Map.of();
    }
    Matcher m = ORDINAL.matcher(host.trim());
    if (!m.matches()) {
      return Map.of();
    }
    long ordinal = Long.parseLong(m.group(1));
    int bits = Spread.bits(wanted);
    if (ordinal >= (1L << bits)) {
      throw new InvalidSettingException(
          "StatefulSet ordinal of " + host,
          ordinal,
          "0.." + ((1L << bits) - 1) + " (the node fields " + wanted + " hold " + bits + " bits)");
    }
    return Spread.over(wanted, ordinal);
  }
}
