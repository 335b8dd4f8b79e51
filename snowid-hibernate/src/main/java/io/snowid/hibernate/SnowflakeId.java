package io.snowid.hibernate;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.hibernate.annotations.IdGeneratorType;

/**
 * A Snowflake ID as an entity's id, assigned by Hibernate before the insert:
 *
 * <pre>{@code
 * @Entity
 * class Order {
 *   @Id @SnowflakeId Long id;                       // or long
 * }
 * @Entity
 * class Coupon {
 *   @Id @SnowflakeId(format = "base62") String code; // 11 characters, sorts like the number
 * }
 * }</pre>
 *
 * <p>The IDs come from the application's {@link io.snowid.IdGenerator} when Hibernate has a bean
 * container that holds one (Spring: the snowid starter's {@code Snowflake} bean, or one of the
 * application's), and from the {@link io.snowid.SnowId} facade otherwise. The id's type must be
 * {@code long}, {@code Long} or {@code String}; another type fails the start of the persistence
 * unit, naming the property. Works with Hibernate ORM 6.6 and 7.
 */
@Documented
@IdGeneratorType(SnowflakeIdGenerator.class)
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD})
public @interface SnowflakeId {
  /**
   * The text form of {@code String} ids ({@link io.snowid.codec.IdCodec#named}); default {@code
   * decimal}. For a key that sorts like the ID as text choose a fixed-width ordered form: {@code
   * base62} (11), {@code base32} (13) or {@code hex} (16). Not used for {@code long} ids.
   */
  String format() default "decimal";
}
