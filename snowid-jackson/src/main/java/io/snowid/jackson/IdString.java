package io.snowid.jackson;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a {@code long} or {@code Long} property (or a collection or array of {@code Long}) as an
 * ID: with {@link SnowIdModule} (Jackson 3) or {@link SnowIdJackson2Module} (Jackson 2) registered,
 * it is written as a JSON string and read from a string or a number. A JavaScript {@code Number}
 * holds integers exactly only up to 2^53, and Snowflake IDs are larger: as numbers they would reach
 * browsers rounded.
 *
 * <pre>{@code
 * record Order(@IdString long id, @IdString(format = "base62") long customer) {}
 * // {"id":"1541815603606036480","customer":"1ptWyK4WgZU"}
 * }</pre>
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.ANNOTATION_TYPE})
public @interface IdString {
  /**
   * The text form ({@link io.snowid.codec.IdCodec#named}: {@code decimal}, {@code hex}, {@code
   * base32}, {@code base32check}, {@code base36}, {@code base62}, {@code base62-legacy}, {@code
   * base64url}); empty for the module's default, {@code decimal} unless configured.
   */
  String format() default "";
}
