package io.snowid.spring.boot;

import io.snowid.Snowflake;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
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
