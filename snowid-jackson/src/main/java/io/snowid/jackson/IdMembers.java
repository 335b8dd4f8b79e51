package io.snowid.jackson;

import io.snowid.InvalidSettingException;
import io.snowid.codec.IdCodec;
import java.lang.annotation.Annotation;
import java.util.List;
import java.util.function.Function;

/**
 * What the Jackson 3 and Jackson 2 modules share: which properties are IDs, and in which text form.
 * A property is an ID when it carries {@link IdString} or one of the configured ID annotations
 * (such as snowid-hibernate's {@code @SnowflakeId}) and its type is {@code long}/{@code Long} (or,
 * for the content of a collection or array, {@code Long}).
 */
final class IdMembers {
  private final IdCodec defaultCodec;
  private final List<Class<? extends Annotation>> idAnnotations;

  IdMembers(IdCodec defaultCodec, List<Class<? extends Annotation>> idAnnotations) {
    this.defaultCodec = defaultCodec;
    this.idAnnotations = List.copyOf(idAnnotations);
  }

  /**
   * The codec of a property, or null if it is no ID property.
   *
   * @param annotations the property's annotation of a type, or null
   * @throws InvalidSettingException if {@link IdString#format()} names no codec
   */
  IdCodec codec(Function<Class<? extends Annotation>, Annotation> annotations) {
    Annotation marked = annotations.apply(IdString.class);
    if (marked instanceof IdString s) {
      return s.format().isEmpty() ? defaultCodec : IdCodec.named(s.format());
    }
    for (Class<? extends Annotation> type : idAnnotations) {
      if (annotations.apply(type) != null) {
        return defaultCodec;
      }
    }
    return null;
  }

  static boolean isLong(Class<?> type) {
    return type == long.class || type == Long.class;
  }

  /**
   * Checks an annotation type given as an ID annotation.
   *
   * @throws InvalidSettingException if it is null or not retained at run time
   */
  static Class<? extends Annotation> checked(Class<? extends Annotation> type) {
    if (type == null
        || !type.isAnnotationPresent(java.lang.annotation.Retention.class)
        || type.getAnnotation(java.lang.annotation.Retention.class).value()
            != java.lang.annotation.RetentionPolicy.RUNTIME) {
      throw new InvalidSettingException(
          "idAnnotation", type, "an annotation type with @Retention(RUNTIME)");
    }
    return type;
  }
}
