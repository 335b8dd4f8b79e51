package io.snowid.spring.boot;

import io.snowid.ClockPolicy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * The {@code snowid.*} properties. Every one is checked when it is bound: a wrong value fails the
 * start with the property's name and its allowed values.
 */
@ConfigurationProperties("snowid")
public class SnowIdProperties extends GeneratorProperties implements Validator {
  /** Whether to configure snowid's generator at all. */
  private boolean enabled = true;

  /** How IDs are written to JSON (snowid-jackson). */
  private final Json json = new Json();

  /**
   * Named generators, each with the settings of the top level (layout, node, fields, lease.*,
   * clock.*, lead): one Snowflake and one IdGenerator bean per name, injected with
   * {@code @Qualifier("name")}. Unset node and lease options (but lease.fields) are the top
   * level's.
   */
  private Map<String, GeneratorProperties> generators = new LinkedHashMap<>();

  public boolean isEnabled() {
    return enabled;
  }

  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  public Json getJson() {
    return json;
  }

  public Map<String, GeneratorProperties> getGenerators() {
    return generators;
  }

  public void setGenerators(Map<String, GeneratorProperties> generators) {
    this.generators = generators;
  }

  @Override
  public boolean supports(Class<?> type) {
    return SnowIdProperties.class.isAssignableFrom(type);
  }

  @Override
  public void validate(Object target, Errors errors) {
    PropertiesCheck.check((SnowIdProperties) target, errors);
  }

  /** Lease options; each is unset (the coordinator's default) unless given. */
  public static class Lease {
    /** IDs are unique within a namespace (with one layout); default "default". */
    private String namespace;

    /**
     * How long a lease lives without renewal, 300ms to 1h; default 2s for file:, 10s for network
     * coordinators.
     */
    private Duration ttl;

    /** The largest difference allowed between the coordinator's clock and this one; 0 to 1m. */
    private Duration skew;

    /**
     * How long a new holder may wait for its clock to pass the high-water mark; 0 to 10m; default
     * the wait after a registry's loss, max-ttl + 2 × max-skew + 1s.
     */
    private Duration startWait;

    /**
     * The longest ttl any holder of the namespace may use, 1s to 1h; default 30s. Every holder of a
     * namespace uses the same; after a registry's loss newcomers wait max-ttl + 2 × max-skew + 1s.
     */
    private Duration maxTtl;

    /** The largest skew any holder of the namespace may allow, 0 to 1m; default 5s. */
    private Duration maxSkew;

    /** How often the lease is renewed; default a third of the ttl, at most half of it. */
    private Duration renew;

    /**
     * How long the start retries a registry that does not answer yet (refused, timed out, still
     * starting), 0 to 10m; default 30s; 0 fails at once. An unknown host or a refused login fails
     * at once.
     */
    private Duration connectWait;

    /** The identity that gets its previous node id back after a restart; default host:main. */
    private String instance;

    /** The node fields to lease; default every field that is not fixed. */
    private List<String> fields = new ArrayList<>();

    public String getNamespace() {
      return namespace;
    }

    public void setNamespace(String namespace) {
      this.namespace = namespace;
    }

    public Duration getTtl() {
      return ttl;
    }

    public void setTtl(Duration ttl) {
      this.ttl = ttl;
    }

    public Duration getSkew() {
      return skew;
    }

    public void setSkew(Duration skew) {
      this.skew = skew;
    }

    public Duration getStartWait() {
      return startWait;
    }

    public void setStartWait(Duration startWait) {
      this.startWait = startWait;
    }

    public Duration getMaxTtl() {
      return maxTtl;
    }

    public void setMaxTtl(Duration maxTtl) {
      this.maxTtl = maxTtl;
    }

    public Duration getMaxSkew() {
      return maxSkew;
    }

    public void setMaxSkew(Duration maxSkew) {
      this.maxSkew = maxSkew;
    }

    public Duration getConnectWait() {
      return connectWait;
    }

    public void setConnectWait(Duration connectWait) {
      this.connectWait = connectWait;
    }

    public Duration getRenew() {
      return renew;
    }

    public void setRenew(Duration renew) {
      this.renew = renew;
    }

    public String getInstance() {
      return instance;
    }

    public void setInstance(String instance) {
      this.instance = instance;
    }

    public List<String> getFields() {
      return fields;
    }

    public void setFields(List<String> fields) {
      this.fields = fields;
    }
  }

  /** The time source and its clock policy. */
  public static class Clock {
    /**
     * The time source: monotonic (the wall clock read once, then System.nanoTime(): steps back do
     * not reach the generator) or wall-clock (System.currentTimeMillis() at every read).
     */
    private ClockSource source = ClockSource.MONOTONIC;

    /**
     * What to do when the time source steps back (wall-clock only): wait (up to max-wait), fail
     * (throw at once) or clockback (count the step in the layout's clockback field).
     */
    private ClockPolicy policy = ClockPolicy.WAIT;

    /** The longest step back the wait policy waits out, per call; 0 to 1m. */
    private Duration maxWait = Duration.ofSeconds(1);

    public ClockSource getSource() {
      return source;
    }

    public void setSource(ClockSource source) {
      this.source = source;
    }

    public ClockPolicy getPolicy() {
      return policy;
    }

    public void setPolicy(ClockPolicy policy) {
      this.policy = policy;
    }

    public Duration getMaxWait() {
      return maxWait;
    }

    public void setMaxWait(Duration maxWait) {
      this.maxWait = maxWait;
    }
  }

  /** The time sources of {@code snowid.clock.source}. */
  public enum ClockSource {
    /** The wall clock read once at start, then advanced by System.nanoTime(). */
    MONOTONIC,
    /** System.currentTimeMillis() at every read; its steps back meet the clock policy. */
    WALL_CLOCK
  }

  /** JSON (snowid-jackson with Jackson 3 or 2). */
  public static class Json {
    /**
     * The text form of IDs in JSON: decimal, hex, base32, base32check, base36, base62,
     * base62-legacy or base64url.
     */
    private String format = "decimal";

    /**
     * Whether long properties annotated @SnowflakeId (snowid-hibernate) are written as JSON strings
     * too, not only those annotated @IdString.
     */
    private boolean entityIds = true;

    public String getFormat() {
      return format;
    }

    public void setFormat(String format) {
      this.format = format;
    }

    public boolean isEntityIds() {
      return entityIds;
    }

    public void setEntityIds(boolean entityIds) {
      this.entityIds = entityIds;
    }
  }
}
