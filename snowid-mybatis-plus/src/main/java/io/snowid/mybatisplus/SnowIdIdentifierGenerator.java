package io.snowid.mybatisplus;

import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import io.snowid.IdGenerator;
import io.snowid.codec.IdCodec;
import java.util.Objects;

/**
 * MyBatis-Plus's {@link IdentifierGenerator} over a snowid {@link IdGenerator}: {@code
 * IdType.ASSIGN_ID} keys (and {@code IdWorker.getId()}) are the generator's IDs, {@code
 * IdType.ASSIGN_UUID} keys the same IDs in a text form.
 *
 * <pre>{@code
 * GlobalConfig global = GlobalConfigUtils.defaults()
 *     .setIdentifierGenerator(new SnowIdIdentifierGenerator(SnowId.generator()));
 * }</pre>
 *
 * <p>With Spring Boot the snowid starter registers one over the application's primary {@code
 * IdGenerator}. A {@code Long}/{@code long} key takes the ID as it is, a {@code String} key with
 * {@code ASSIGN_ID} its decimal digits; smaller number types cannot hold a 64-bit ID.
 */
public final class SnowIdIdentifierGenerator implements IdentifierGenerator {
  private final IdGenerator ids;
  private final IdCodec uuidForm;

  /** IDs from {@code ids}; {@code ASSIGN_UUID} keys in decimal. */
  public SnowIdIdentifierGenerator(IdGenerator ids) {
    this(ids, IdCodec.DECIMAL);
  }

  /**
   * IDs from {@code ids}; {@code ASSIGN_UUID} keys in {@code uuidForm} ({@code
   * IdCodec.named("base62")}: 11 characters that sort like the number).
   */
  public SnowIdIdentifierGenerator(IdGenerator ids, IdCodec uuidForm) {
    this.ids = Objects.requireNonNull(ids, "ids");
    this.uuidForm = Objects.requireNonNull(uuidForm, "uuidForm");
  }

  /** The next ID, for an {@code ASSIGN_ID} key of {@code entity}. */
  @Override
  public Long nextId(Object entity) {
    return ids.nextId();
  }

  /** The next ID in the text form, for an {@code ASSIGN_UUID} key of {@code entity}. */
  @Override
  public String nextUUID(Object entity) {
    return uuidForm.encode(ids.nextId());
  }

  /** The text form of {@code ASSIGN_UUID} keys. */
  public IdCodec uuidForm() {
    return uuidForm;
  }

  @Override
  public String toString() {
    return "snowid IdentifierGenerator over " + ids + ", ASSIGN_UUID as " + uuidForm.name();
  }
}
