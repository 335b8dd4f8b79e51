package io.snowid.spring.boot;

import io.snowid.DecodedId;
import io.snowid.InvalidSettingException;
import io.snowid.SnowIdException;
import io.snowid.Snowflake;
import io.snowid.codec.IdCodec;
import io.snowid.lease.Secrets;
import io.snowid.node.NodeStatus;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.actuate.endpoint.web.annotation.WebEndpoint;

/**
 * {@code /actuator/snowid}: every generator (name, layout, node values, lease state, deadline,
 * lifetime left); {@code /actuator/snowid/{generator}}: one; {@code
 * /actuator/snowid/{generator}/{id}}: an ID decoded with that generator's layout (any text form; a
 * bad one is a 400 with {@code {"error": …}}). Sources are shown as scheme and host only: never a
 * password, user, database or query.
 */
@WebEndpoint(id = "snowid")
final class SnowIdEndpoint {
  private static final Pattern SCHEME =
      Pattern.compile("^(jdbc:[a-z0-9]+:|[a-z][a-z0-9+.-]*:(?://)?)", Pattern.CASE_INSENSITIVE);
  private static final int MAX_ID_LENGTH = 64;

  private final SnowIdGenerators generators;

  SnowIdEndpoint(SnowIdGenerators generators) {
    this.generators = generators;
  }

  @ReadOperation
  public Map<String, Object> generators() {
    List<Map<String, Object>> all =
        generators.all().stream().map(SnowIdEndpoint::describe).toList();
    return Map.of("generators", all);
  }

  @ReadOperation
  public WebEndpointResponse<Map<String, Object>> generator(@Selector String generator) {
    SnowIdGenerators.Entry e = generators.get(generator);
    return e == null ? unknown(generator) : new WebEndpointResponse<>(describe(e), 200);
  }

  @ReadOperation
  public WebEndpointResponse<Map<String, Object>> decode(
      @Selector String generator, @Selector String id) {
    SnowIdGenerators.Entry e = generators.get(generator);
    if (e == null) {
      return unknown(generator);
    }
    if (id.length() > MAX_ID_LENGTH) {
      return error(400, "id is longer than " + MAX_ID_LENGTH + " characters");
    }
    DecodedId d;
    try {
      d = e.snowflake().layout().decode(IdCodec.detect(id).decode(id));
    } catch (SnowIdException ex) {
      return error(400, ex.getMessage());
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("generator", e.name());
    out.put("id", d.layout().totalBits() == 64 ? Long.toUnsignedString(d.id()) : "" + d.id());
    out.put("timestamp", d.instant().toString());
    out.put("fields", d.fields());
    out.put("sequence", d.sequence());
    out.put("layout", d.layout().spec());
    return new WebEndpointResponse<>(out, 200);
  }

  private static Map<String, Object> describe(SnowIdGenerators.Entry e) {
    Snowflake s = e.snowflake();
    NodeStatus status = s.nodeStatus();
    Duration left = s.remainingLifetime();
    Map<String, Object> lease = new LinkedHashMap<>();
    lease.put("state", state(status));
    String source = Secrets.schemeAndHost(status.source());
    Matcher scheme = SCHEME.matcher(source);
    lease.put(
        "scheme", scheme.find() ? scheme.group(1).toLowerCase(java.util.Locale.ROOT) : "none");
    lease.put("source", source);
    lease.put("detail", Secrets.scrub(status.detail()));
    if (status.validUntil() != null) {
      lease.put("deadline", status.validUntil().toString());
    }
    if (status.waitingUntil() != null) {
      lease.put("waitingUntil", status.waitingUntil().toString());
    }
    lease.put("renewals", status.renewals());
    lease.put("renewalFailures", status.renewalFailures());
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("name", e.name());
    out.put("primary", e.isDefault());
    out.put("layout", s.layout().spec());
    out.put("values", status.values());
    out.put("lease", lease);
    out.put("lastInstant", s.layout().lastInstant().toString());
    out.put("lifetimeLeftDays", Math.max(0, left.toDays()));
    if (e.counted() != null) {
      out.put("issued", e.counted().issued());
    }
    return out;
  }

  /** {@code held}, {@code waiting} (for the node's high-water mark) or {@code fenced}. */
  private static String state(NodeStatus s) {
    if (s.held()) {
      return "held";
    }
    return s.waitingUntil() != null ? "waiting" : "fenced";
  }

  private WebEndpointResponse<Map<String, Object>> unknown(String name) {
    List<String> names = generators.names();
    return error(
        404,
        "no generator "
            + name
            + "; generators: "
            + String.join(", ", names)
            + InvalidSettingException.nearMiss(name, names)
                .map(n -> "; did you mean " + n + "?")
                .orElse(""));
  }

  private static WebEndpointResponse<Map<String, Object>> error(int status, String message) {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("error", message);
    return new WebEndpointResponse<>(body, status);
  }
}
