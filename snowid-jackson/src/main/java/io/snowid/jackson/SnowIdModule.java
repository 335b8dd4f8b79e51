package io.snowid.jackson;

import io.snowid.InvalidSettingException;
import io.snowid.codec.IdCodec;
import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.Version;
import tools.jackson.databind.JacksonModule;

/**
 * IDs as JSON strings for Jackson 3 ({@code tools.jackson}): properties marked {@link IdString}, or
 * with one of the {@linkplain Builder#idAnnotation ID annotations}, are written as strings in their
 * text form and read from a string in that form or from a JSON number. Register it on the mapper
 * ({@code JsonMapper.builder().addModule(new SnowIdModule())}); the snowid Spring Boot starter
 * registers it by itself.
 *
 * <p>Reading accepts a JSON integer (up to 2^64&minus;1, read as unsigned 64 bits like the text
 * forms) or a string in the property's form; anything else, or a string that is no ID of that form,
 * fails with Jackson's {@code InvalidFormatException} naming the value and the form.
 */
public final class SnowIdModule extends JacksonModule {
  private final IdMembers members;

  /** Decimal strings, for properties marked {@link IdString}. */
  public SnowIdModule() {
    this(builder());
  }

  private SnowIdModule(Builder b) {
    this.members = new IdMembers(b.format, b.idAnnotations);
  }

  /** A module with other settings. */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String getModuleName() {
    return "snowid";
  }

  @Override
  public Version version() {
    return Version.unknownVersion();
  }

  @Override
  public void setupModule(SetupContext context) {
    // Appended: an explicit @JsonSerialize/@JsonDeserialize on a property still wins.
    context.appendAnnotationIntrospector(new Jackson3Ids(members));
  }

  /** Settings of a {@link SnowIdModule}; every setter validates at once. */
  public static final class Builder {
    private IdCodec format = IdCodec.DECIMAL;
    private final List<Class<? extends Annotation>> idAnnotations = new ArrayList<>();

    private Builder() {}

    /**
     * The text form of IDs whose {@link IdString} names none, and of properties with an {@link
     * #idAnnotation}; default {@code decimal}.
     *
     * @throws InvalidSettingException (setting {@code format}) for an unknown form
     */
    public Builder format(String name) {
      this.format = IdCodec.named(name);
      return this;
    }

    /**
     * Also treats {@code long}/{@code Long} properties with this annotation as IDs, e.g.
     * snowid-hibernate's {@code SnowflakeId.class}: every entity ID then reaches JSON as a string
     * without a second annotation.
     *
     * @throws InvalidSettingException if the type is not retained at run time
     */
    public Builder idAnnotation(Class<? extends Annotation> type) {
      idAnnotations.add(IdMembers.checked(type));
      return this;
    }

    public SnowIdModule build() {
      return new SnowIdModule(this);
    }
  }
}
