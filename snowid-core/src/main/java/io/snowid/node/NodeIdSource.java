package io.snowid.node;

import io.snowid.Layout;
import java.util.List;
import java.util.Map;

/**
 * One place a generator's node field values can come from: a system property, an environment
 * variable, the Kubernetes StatefulSet ordinal, the host's address, or a provider of your own
 * registered for {@link java.util.ServiceLoader} under this interface.
 */
public interface NodeIdSource {
  /** A short name for logs, e.g. {@code "system property"}. */
  String name();

  /**
   * Values for some or all of the {@code wanted} node fields of {@code layout}; an empty map when
   * this source has none. Never returns values for other fields.
   *
   * @throws io.snowid.InvalidSettingException if the source is set but its value is unusable
   */
  Map<String, Long> resolve(Layout layout, List<Layout.Field> wanted);

  /** What this source looked at for a field, for the log line explaining the choice. */
  default String lookedAt(Layout.Field field) {
    return name();
  }
}
