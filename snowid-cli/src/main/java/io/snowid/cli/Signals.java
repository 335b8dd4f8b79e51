package io.snowid.cli;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

/**
 * Handles SIGTERM and SIGINT itself, so that {@code serve} can stop in order: finish the requests
 * in flight, then release the node lease. Left to the JVM, a signal runs every shutdown hook at
 * once, and the lease's own hook could release it while requests are still being answered. Uses
 * {@code sun.misc.Signal} (module jdk.unsupported) by reflection; where it is missing, the shutdown
 * hook is the fallback.
 */
final class Signals {
  /** Set by {@code main}: a command run inside another program leaves its signals alone. */
  static volatile boolean owned;

  private Signals() {}

  /**
   * Runs {@code action} on SIGTERM and SIGINT; false if this process's signals are not ours (see
   * {@link #owned}) or the JVM does not allow it.
   */
  static boolean onTerminate(Runnable action) {
    if (!owned) {
      return false;
    }
    try {
      Class<?> signal = Class.forName("sun.misc.Signal");
      Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
      InvocationHandler ih =
          (proxy, method, args) ->
              switch (method.getName()) {
                case "handle" -> {
                  action.run();
                  yield null;
                }
                case "hashCode" -> System.identityHashCode(proxy);
                case "equals" -> proxy == args[0];
                default -> "snowid signal handler";
              };
      Object handler =
          Proxy.newProxyInstance(handlerType.getClassLoader(), new Class<?>[] {handlerType}, ih);
      Method handle = signal.getMethod("handle", signal, handlerType);
      for (String name : new String[] {"TERM", "INT"}) {
        handle.invoke(null, signal.getConstructor(String.class).newInstance(name), handler);
      }
      return true;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return false;
    }
  }
}
