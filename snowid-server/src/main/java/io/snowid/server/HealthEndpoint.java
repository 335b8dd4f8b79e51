package io.snowid.server;

import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.lease.Secrets;
import io.snowid.node.NodeStatus;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** {@code GET /health}: 200 while IDs can be issued, 503 with the reason otherwise. */
final class HealthEndpoint {
  private final Snowflake generator;

  HealthEndpoint(Snowflake generator) {
    this.generator = generator;
  }

  int health(Response response, Callback callback) {
    NodeStatus s = generator.nodeStatus();
    Duration left = generator.remainingLifetime();
    boolean expired = left.isNegative() || left.isZero();
    boolean up = s.held() && !expired;
    String detail = expired ? "the layout's lifetime is over" : s.detail();
    String json =
        Json.object()
            .put("status", up ? "UP" : "DOWN")
            .put("held", s.held())
            .put("source", Secrets.schemeAndHost(s.source()))
            .put("values", ordered(s.values(), generator.layout()))
            .put("validUntil", s.validUntil() == null ? null : s.validUntil().toString())
            .put("detail", detail)
            .put("renewals", s.renewals())
            .put("renewalFailures", s.renewalFailures())
            .toString();
    return Replies.json(response, callback, up ? 200 : 503, json);
  }

  /** Node values in the layout's field order. */
  private static Map<String, Long> ordered(Map<String, Long> values, Layout layout) {
    Map<String, Long> out = new LinkedHashMap<>();
    for (Layout.Field f : layout.nodeFields()) {
      Long v = values.get(f.name());
      if (v != null) {
        out.put(f.name(), v);
      }
    }
    values.forEach(out::putIfAbsent);
    return out;
  }
}
