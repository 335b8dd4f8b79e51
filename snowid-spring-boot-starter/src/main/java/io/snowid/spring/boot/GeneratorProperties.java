package io.snowid.spring.boot;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The settings of one generator: those of {@code snowid.*} and of each {@code
 * snowid.generators.<name>.*}. Every one is checked when it is bound.
 */
public class GeneratorProperties {
  /**
   * The ID layout: a preset (twitter, westid, discord, instagram, sonyflake, js53) or a spec such
   * as "time=41,datacenter=5,worker=5,sequence=12,epoch=2010-11-04T01:42:54.657Z,unit=1ms".
   */
  private String layout = "twitter";

  /**
   * Where the node field values come from: "auto", "static:worker=N[,datacenter=N]", a lease
   * coordinator URI ("file:DIR", "redis://host:6379", "jdbc:postgresql://…" with snowid-jdbc), or
   * one of the application's own connections: "datasource" (its DataSource, with snowid-jdbc) or
   * "redis-connection" (its Spring Data Redis Lettuce connection, with snowid-redis). The
   * coordinator's own options go in a query ("datasource?table=ids"). Unset: a lease in this host's
   * lease directory, as SnowId.next() uses.
   */
  private String node;

  /**
   * Node field values fixed here, e.g. snowid.fields.datacenter=1: they become part of the lease
   * namespace and only the other fields are leased.
   */
  private Map<String, Long> fields = new LinkedHashMap<>();

  /** Lease options, for a node source that is a lease coordinator. */
  private final SnowIdProperties.Lease lease = new SnowIdProperties.Lease();

  /** The time source and what happens when it steps back. */
  private final SnowIdProperties.Clock clock = new SnowIdProperties.Clock();

  /**
   * How far ahead of the time source a burst may run before callers wait (IDs may carry a time up
   * to this much in the future); 0 to 1m.
   */
  private Duration lead = Duration.ZERO;

  public String getLayout() {
    return layout;
  }

  public void setLayout(String layout) {
    this.layout = layout;
  }

  public String getNode() {
    return node;
  }

  public void setNode(String node) {
    this.node = node;
  }

  public Map<String, Long> getFields() {
    return fields;
  }

  public void setFields(Map<String, Long> fields) {
    this.fields = fields;
  }

  public SnowIdProperties.Lease getLease() {
    return lease;
  }

  public SnowIdProperties.Clock getClock() {
    return clock;
  }

  public Duration getLead() {
    return lead;
  }

  public void setLead(Duration lead) {
    this.lead = lead;
  }

  /**
   * These settings with the node source and the lease options (but {@code lease.fields}) that are
   * unset here taken from {@code top}: a named generator leases from the top level's registry
   * unless it names another.
   */
  GeneratorProperties inheriting(GeneratorProperties top) {
    GeneratorProperties g = new GeneratorProperties();
    g.layout = layout;
    g.node = node != null ? node : top.node;
    g.fields = fields;
    g.lead = lead;
    g.clock.setSource(clock.getSource());
    g.clock.setPolicy(clock.getPolicy());
    g.clock.setMaxWait(clock.getMaxWait());
    SnowIdProperties.Lease mine = lease;
    SnowIdProperties.Lease theirs = top.lease;
    g.lease.setNamespace(or(mine.getNamespace(), theirs.getNamespace()));
    g.lease.setTtl(or(mine.getTtl(), theirs.getTtl()));
    g.lease.setSkew(or(mine.getSkew(), theirs.getSkew()));
    g.lease.setStartWait(or(mine.getStartWait(), theirs.getStartWait()));
    g.lease.setMaxTtl(or(mine.getMaxTtl(), theirs.getMaxTtl()));
    g.lease.setMaxSkew(or(mine.getMaxSkew(), theirs.getMaxSkew()));
    g.lease.setRenew(or(mine.getRenew(), theirs.getRenew()));
    g.lease.setConnectWait(or(mine.getConnectWait(), theirs.getConnectWait()));
    g.lease.setInstance(or(mine.getInstance(), theirs.getInstance()));
    g.lease.setFields(mine.getFields());
    return g;
  }

  private static <T> T or(T mine, T theirs) {
    return mine != null ? mine : theirs;
  }
}
