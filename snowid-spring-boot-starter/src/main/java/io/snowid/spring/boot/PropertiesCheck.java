package io.snowid.spring.boot;

import io.snowid.ClockPolicy;
import io.snowid.InvalidSettingException;
import io.snowid.Layout;
import io.snowid.Snowflake;
import io.snowid.SnowflakeBuilder;
import io.snowid.codec.IdCodec;
import io.snowid.lease.LeaseCoordinators;
import io.snowid.lease.LeaseOptions;
import java.time.Duration;
import java.util.Map;
import org.springframework.validation.Errors;

/**
 * Checks the {@code snowid.*} properties when they are bound, with the very checks the generator's
 * builder makes, so that a wrong value fails the start as a binding error: Spring Boot then names
 * the property, its value and where it was set, and the reason says what is allowed.
 */
final class PropertiesCheck {
  private PropertiesCheck() {}

  static void check(SnowIdProperties p, Errors errors) {
    if (!p.isEnabled()) {
      return;
    }
    check(p, "snowid.", errors);
    try {
      IdCodec.named(p.getJson().getFormat());
    } catch (InvalidSettingException e) {
      reject(errors, "json.format", "snowid.json.format", e);
    }
    for (Map.Entry<String, GeneratorProperties> g : p.getGenerators().entrySet()) {
      errors.pushNestedPath("generators[" + g.getKey() + "]");
      check(g.getValue().inheriting(p), GeneratorNames.prefix(g.getKey()), errors);
      errors.popNestedPath();
    }
  }

  /** One generator's settings; {@code prefix} is where they are set, e.g. {@code "snowid."}. */
  private static void check(GeneratorProperties p, String prefix, Errors errors) {
    SnowflakeBuilder b = Snowflake.builder();
    Layout layout = null;
    try {
      layout = Layout.preset(p.getLayout());
      b.layout(layout);
    } catch (InvalidSettingException e) {
      reject(errors, "layout", prefix + "layout", e);
    }
    if (layout != null) {
      for (Map.Entry<String, Long> f : p.getFields().entrySet()) {
        try {
          b.node(f.getKey(), f.getValue() == null ? -1 : f.getValue());
        } catch (InvalidSettingException e) {
          reject(errors, "fields", prefix + "fields." + f.getKey(), e);
        }
      }
      if (p.getClock().getPolicy() == ClockPolicy.CLOCKBACK && layout.clockbackField().isEmpty()) {
        errors.rejectValue(
            "clock.policy",
            "snowid.invalid",
            prefix
                + "clock.policy = clockback is invalid; allowed: wait or fail, since the layout "
                + layout
                + " has no clockback field");
      }
    }
    if (p.getClock().getSource() == null) {
      errors.rejectValue(
          "clock.source",
          "snowid.invalid",
          prefix + "clock.source is missing; allowed: monotonic, wall-clock");
    }
    if (p.getClock().getPolicy() == null) {
      errors.rejectValue(
          "clock.policy",
          "snowid.invalid",
          prefix + "clock.policy is missing; allowed: wait, fail, clockback");
    }
    try {
      b.maxWait(p.getClock().getMaxWait());
    } catch (InvalidSettingException e) {
      reject(errors, "clock.maxWait", prefix + "clock.max-wait", e);
    }
    try {
      b.maxLead(p.getLead());
    } catch (InvalidSettingException e) {
      reject(errors, "lead", prefix + "lead", e);
    }
    try {
      String spec = NodeSpec.of(p, prefix);
      if (NodeSpec.isLease(spec)) {
        LeaseOptions.parse(spec, defaultTtl(spec));
      }
    } catch (InvalidSettingException e) {
      String setting = e.setting();
      String property =
          setting.startsWith(prefix)
              ? setting.substring(prefix.length())
              : NodeSpec.property(setting, p);
      String field =
          property
              .replace("start-wait", "startWait")
              .replace("max-ttl", "maxTtl")
              .replace("max-skew", "maxSkew")
              .replace("connect-wait", "connectWait");
      String label =
          property.equals("node") && !setting.equals("node")
              ? prefix + "node option " + setting
              : prefix + property;
      reject(errors, field, label, e);
    }
  }

  /**
   * The coordinator's default ttl, which the checks of ttl against maxTtl and renew against ttl
   * need; 10 s (a network coordinator's) when no provider on the class path takes the URI, which
   * fails later, naming it.
   */
  private static Duration defaultTtl(String spec) {
    try {
      return LeaseCoordinators.provider(spec).defaultTtl();
    } catch (InvalidSettingException e) {
      return Duration.ofSeconds(10);
    }
  }

  private static void reject(
      Errors errors, String field, String property, InvalidSettingException e) {
    errors.rejectValue(
        field,
        "snowid.invalid",
        property + " = " + e.value() + " is invalid; allowed: " + e.allowed());
  }
}
