package io.snowid.hibernate;

import io.snowid.IdGenerator;
import io.snowid.InvalidSettingException;
import io.snowid.codec.IdCodec;
import java.lang.reflect.Field;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.util.EnumSet;
import org.hibernate.engine.spi.SharedSessionContractImplementor;
import org.hibernate.generator.AnnotationBasedGenerator;
import org.hibernate.generator.BeforeExecutionGenerator;
import org.hibernate.generator.EventType;
import org.hibernate.generator.EventTypeSets;
import org.hibernate.generator.GeneratorCreationContext;

/**
 * The generator behind {@link SnowflakeId}: one {@link IdGenerator#nextId()} per insert, as a
 * {@code Long} or, for {@code String} ids, in the annotation's text form. Hibernate creates one per
 * annotated id when the persistence unit starts.
 */
public final class SnowflakeIdGenerator
    implements BeforeExecutionGenerator, AnnotationBasedGenerator<SnowflakeId> {
  /*
   * A no-argument constructor and initialize(), not a constructor taking the annotation: Hibernate
   * 6.6 creates generators through its bean container when there is one (Spring's), which builds
   * them with a no-argument constructor, and its fallback only knows a constructor taking 6.6's
   * CustomIdGeneratorCreationContext, which Hibernate 7 no longer has. initialize(annotation,
   * member, context) is called by both.
   */
  private static final long serialVersionUID = 1L;

  @SuppressWarnings("serial") // generators are not serialised; the IdGenerator is the process's
  private IdGenerator ids;

  @SuppressWarnings("serial") // every IdCodec is a stateless constant
  private IdCodec codec; // null: the id is a long

  /** For Hibernate, which then calls {@link #initialize}. */
  public SnowflakeIdGenerator() {}

  /**
   * Called by Hibernate for each id annotated {@link SnowflakeId}, when the persistence unit
   * starts.
   *
   * @throws InvalidSettingException if the id's type is not {@code long}, {@code Long} or {@code
   *     String}, or the format names no text form
   */
  @Override
  public void initialize(SnowflakeId config, Member member, GeneratorCreationContext context) {
    this.codec = codecFor(config, member);
    this.ids = IdGenerators.of(context.getServiceRegistry(), describe(member));
  }

  private static IdCodec codecFor(SnowflakeId config, Member member) {
    Class<?> type = typeOf(member);
    if (type == long.class || type == Long.class) {
      return null;
    }
    if (type == String.class) {
      try {
        return IdCodec.named(config.format());
      } catch (InvalidSettingException e) {
        throw new InvalidSettingException(
            "@SnowflakeId(format) of " + describe(member), config.format(), e.allowed());
      }
    }
    throw new InvalidSettingException(
        "@SnowflakeId " + describe(member),
        type.getName(),
        "long, Long or String (a 64-bit ID does not fit smaller types)");
  }

  private static Class<?> typeOf(Member member) {
    if (member instanceof Field f) {
      return f.getType();
    }
    if (member instanceof Method m) {
      return m.getReturnType();
    }
    return Object.class;
  }

  private static String describe(Member member) {
    return member.getDeclaringClass().getSimpleName() + "." + member.getName();
  }

  @Override
  public Object generate(
      SharedSessionContractImplementor session,
      Object owner,
      Object currentValue,
      EventType eventType) {
    long id = ids.nextId();
    return codec == null ? (Object) id : codec.encode(id);
  }

  @Override
  public EnumSet<EventType> getEventTypes() {
    return EventTypeSets.INSERT_ONLY;
  }
}
