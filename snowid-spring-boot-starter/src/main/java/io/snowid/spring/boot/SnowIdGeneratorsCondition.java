package io.snowid.spring.boot;

import io.snowid.Snowflake;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * There is a generator for health, meters and the endpoint to report on: the application's one
 * {@link Snowflake} (the starter's unnamed one, or its own), or generators of {@code
 * snowid.generators}.
 */
final class SnowIdGeneratorsCondition extends AnyNestedCondition {
  SnowIdGeneratorsCondition() {
    super(ConfigurationCondition.ConfigurationPhase.REGISTER_BEAN);
  }

  @ConditionalOnSingleCandidate(Snowflake.class)
  static final class OneSnowflake {}

  @Conditional(Named.class)
  static final class NamedGenerators {}

  /**
   * {@code snowid.generators.<name>} is set and snowid is enabled (a wrong name or key fails the
   * start elsewhere).
   */
  static final class Named extends SpringBootCondition {
    @Override
    public ConditionOutcome getMatchOutcome(
        ConditionContext context, AnnotatedTypeMetadata metadata) {
      boolean named;
      try {
        named =
            GeneratorNames.enabled(context.getEnvironment())
                && !GeneratorNames.of(context.getEnvironment()).isEmpty();
      } catch (RuntimeException e) {
        named = false;
      }
      return new ConditionOutcome(named, "snowid.generators " + (named ? "set" : "not set"));
    }
  }
}
