package io.snowid.spring.boot;

import io.snowid.Snowflake;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code snowid} in Actuator's health on Spring Boot 3, whose health API ({@code
 * org.springframework.boot.actuate.health}) Boot 4 moved to {@code
 * org.springframework.boot.health.contributor}. The starter is compiled against Boot 4, so on Boot
 * 3 it implements {@code HealthIndicator} as a proxy and builds {@code Health} through the same
 * public methods ({@code Health.up()}/{@code down()}, {@code withDetails}, {@code build}) a
 * compiled indicator would call: one jar serves both.
 */
final class Boot3HealthIndicator implements InvocationHandler {
  static final String INDICATOR = "org.springframework.boot.actuate.health.HealthIndicator";
  static final String CONTRIBUTOR = "org.springframework.boot.actuate.health.HealthContributor";
  private static final String COMPOSITE =
      "org.springframework.boot.actuate.health.CompositeHealthContributor";
  private static final String HEALTH = "org.springframework.boot.actuate.health.Health";

  private final Snowflake snowflake;
  private final Method up;
  private final Method down;
  private final Method withDetails;
  private final Method build;

  private Boot3HealthIndicator(Snowflake snowflake, ClassLoader loader)
      throws ReflectiveOperationException {
    this.snowflake = snowflake;
    Class<?> health = Class.forName(HEALTH, false, loader);
    this.up = health.getMethod("up");
    this.down = health.getMethod("down");
    Class<?> builder = up.getReturnType();
    this.withDetails = builder.getMethod("withDetails", Map.class);
    this.build = builder.getMethod("build");
  }

  /**
   * Boot 3's {@code HealthIndicator} of the one generator, or its {@code
   * CompositeHealthContributor} of one indicator per generator when there are named generators (as
   * {@link SnowIdHealthIndicator#of}).
   */
  static Object of(SnowIdGenerators generators, ClassLoader loader) {
    SnowIdGenerators.Entry only = generators.get(GeneratorNames.DEFAULT);
    if (!generators.hasNamed() && only != null) {
      return create(only.snowflake(), loader);
    }
    Map<String, Object> each = new LinkedHashMap<>();
    for (SnowIdGenerators.Entry e : generators.all()) {
      each.put(e.name(), create(e.snowflake(), loader));
    }
    try {
      return Class.forName(COMPOSITE, false, loader)
          .getMethod("fromMap", Map.class)
          .invoke(null, each);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Spring Boot 3's health API is not as expected", e);
    }
  }

  /** A {@code org.springframework.boot.actuate.health.HealthIndicator} for the generator. */
  static Object create(Snowflake snowflake, ClassLoader loader) {
    try {
      Class<?> indicator = Class.forName(INDICATOR, false, loader);
      return Proxy.newProxyInstance(
          loader, new Class<?>[] {indicator}, new Boot3HealthIndicator(snowflake, loader));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Spring Boot 3's health API is not as expected", e);
    }
  }

  @Override
  public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
    switch (method.getName()) {
      case "health" -> {
        if (method.getParameterCount() == 0) {
          return health();
        }
      }
      case "toString" -> {
        return "snowid health indicator of " + snowflake;
      }
      case "hashCode" -> {
        return System.identityHashCode(proxy);
      }
      case "equals" -> {
        return proxy == args[0];
      }
      default -> {}
    }
    if (method.isDefault()) {
      return InvocationHandler.invokeDefault(proxy, method, args);
    }
    throw new UnsupportedOperationException(method.toString());
  }

  private Object health() throws Throwable {
    HealthReport report = HealthReport.of(snowflake);
    try {
      Object builder = (report.up() ? up : down).invoke(null);
      withDetails.invoke(builder, report.details());
      return build.invoke(builder);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
