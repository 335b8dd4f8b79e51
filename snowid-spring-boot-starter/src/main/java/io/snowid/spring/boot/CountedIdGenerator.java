package io.snowid.spring.boot;

import io.snowid.IdGenerator;
import io.snowid.Layout;
import java.util.concurrent.atomic.LongAdder;

/**
 * The starter's {@link IdGenerator} bean: the {@code Snowflake} bean's IDs, counted for the {@code
 * snowid.ids.issued} meter. It is the primary {@code IdGenerator}, so {@code @SnowflakeId} entities
 * and anything that injects an {@code IdGenerator} are counted; calls on the {@code Snowflake} bean
 * itself are not (the generator keeps no count of its own: a shared counter on its hot path would
 * cost every caller).
 */
public final class CountedIdGenerator implements IdGenerator {
  private final IdGenerator ids;
  private final LongAdder issued = new LongAdder();

  CountedIdGenerator(IdGenerator ids) {
    this.ids = ids;
  }

  @Override
  public long nextId() {
    long id = ids.nextId();
    issued.increment();
    return id;
  }

  @Override
  public void nextIds(long[] into) {
    ids.nextIds(into);
    issued.add(into.length);
  }

  @Override
  public Layout layout() {
    return ids.layout();
  }

  /** IDs issued through this bean so far. */
  public long issued() {
    return issued.sum();
  }

  @Override
  public String toString() {
    return "counted " + ids;
  }
}
