package io.snowid.jackson;

import com.fasterxml.jackson.core.Version;
import com.fasterxml.jackson.databind.Module;
import io.snowid.InvalidSettingException;
import io.snowid.codec.IdCodec;
import java.lang.annotation.Annotation;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link SnowIdModule} for Jackson 2 ({@code com.fasterxml.jackson}): the same annotations, forms
 * and reading rules. Register it with {@code mapper.registerModule(new SnowIdJackson2Module())}.
 */
public final class SnowIdJackson2Module extends Module {
  private final IdMembers members;

  /** Decimal strings, for properties marked {@link IdString}. */
  public SnowIdJackson2Module() {
    this(builder());
  }

  private SnowIdJackson2Module(Builder b) {
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
    context.appendAnnotationIntrospector(new Jackson2Ids(members));
  }

  /** Settings of a {@link SnowIdJackson2Module}; as {@link SnowIdModule.Builder}. */
  public static final class Builder {
    private IdCodec format = IdCodec.DECIMAL;
    private final List<Class<? extends Annotation>> idAnnotations = new ArrayList<>();

    private Builder() {}

    /**
     * The default text form; see {@link SnowIdModule.Builder#format}.
     *
     * @throws InvalidSettingException for an unknown form
     */
    public Builder format(String name) {
      this.format = IdCodec.named(name);
      return this;
    }

    /**
     * An annotation that also marks ID properties; see {@link SnowIdModule.Builder#idAnnotation}.
     *
     * @throws InvalidSettingException if the type is not retained at run time
     */
    public Builder idAnnotation(Class<? extends Annotation> type) {
      idAnnotations.add(IdMembers.checked(type));
      return this;
    }

    public SnowIdJackson2Module build() {
      return new SnowIdJackson2Module(this);
    }
  }
}
