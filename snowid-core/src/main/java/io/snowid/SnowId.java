package io.snowid;

import io.snowid.codec.IdCodec;
import io.snowid.lease.LeaseCoordinators;
import java.util.function.Supplier;

/**
 * Zero-configuration access to one process-wide generator: {@code long id = SnowId.next();}.
 *
 * <p>The generator is built on first use with the layout named by the system property {@code
 * snowid.layout} or the environment variable {@code SNOWID_LAYOUT} (a preset or a spec; default
 * {@code twitter}), and node values from {@code snowid.node} / {@code SNOWID_NODE} (see {@link
 * SnowflakeBuilder#nodeSource}; default: a lease from this host's lease directory {@link
 * LeaseCoordinators#DEFAULT_FILE_URI}, so processes on one host never share node values, the other
 * fields as {@link io.snowid.node.internal.LocalLeasePlan} decides from what the host is — inside
 * Kubernetes without a StatefulSet ordinal it refuses). {@link #nextJs53()} has a second generator
 * of its own, on the {@code js53} layout, built on its first use the same way.
 *
 * <p><b>Initialisation and retry.</b> Each generator is built at most once per JVM: concurrent
 * first calls wait for one build and all get its result. If the build fails (an unknown layout, a
 * lease directory that cannot be written, a coordinator out of reach, …), the call throws the
 * exception the build threw, unchanged and with its cause, normally a {@link SnowIdException} such
 * as {@link InvalidSettingException} or {@link io.snowid.node.NodeIdUnavailableException}; nothing
 * is kept, and the next call reads the settings again and tries again. So a failure is never cached
 * for the life of the JVM, and once its cause is gone (the property corrected, the directory
 * writable) the facade works. After a successful build, a call costs one volatile read on top of
 * the generator's own {@link Snowflake#nextId()}: no lock.
 *
 * <p><b>Lease and process lifecycle.</b> The facade's generators belong to the process: nothing
 * closes them, and they live until the JVM exits. The facade is therefore the one place in snowid
 * that installs a JVM shutdown hook: when a generator is built, a hook is registered that closes it
 * at exit (normal exit, {@link System#exit}, SIGTERM, SIGINT), which releases its node lease and
 * records its high-water mark. Generators built with {@link Snowflake#builder()} get no hook: their
 * owner closes them. After SIGKILL or {@link Runtime#halt} no hook runs: a {@code file:} lease is
 * then freed at once (its holder process is gone), a network coordinator's lease after its time to
 * live. A failed build holds no lease: whatever it acquired is released before the exception
 * reaches the caller.
 */
public final class SnowId {
  private SnowId() {}

  private static final Lazy GENERATOR = new Lazy(SnowId::build);
  private static final Lazy JS53 = new Lazy(SnowId::buildJs53);

  /**
   * A generator built on first use, at most once; a failed build leaves nothing behind, so the next
   * {@link #get()} builds again. Deliberately not the holder-class idiom: an exception in a class
   * initialiser fails that class for the life of the JVM ({@link ExceptionInInitializerError}, then
   * {@link NoClassDefFoundError}).
   */
  private static final class Lazy {
    private final Supplier<Snowflake> build;
    private volatile Snowflake built;

    Lazy(Supplier<Snowflake> build) {
      this.build = build;
    }

    Snowflake get() {
      Snowflake g = built;
      return g != null ? g : init();
    }

    private synchronized Snowflake init() {
      Snowflake g = built;
      if (g == null) {
        g = build.get(); // throws to the caller; built stays null and the next call retries
        Runtime.getRuntime().addShutdownHook(new Thread(g::close, "snowid-release"));
        built = g;
      }
      return g;
    }
  }

  private static Snowflake build() {
    String layout = setting("snowid.layout", "SNOWID_LAYOUT", null);
    String node = setting("snowid.node", "SNOWID_NODE", LeaseCoordinators.DEFAULT_FILE_URI);
    return Snowflake.builder()
        .layout(layout == null ? Layout.twitter() : Layout.preset(layout))
        .nodeSource(node)
        .build();
  }

  private static Snowflake buildJs53() {
    return Snowflake.builder()
        .layout(Layout.preset("js53"))
        .nodeSource(setting("snowid.node", "SNOWID_NODE", LeaseCoordinators.DEFAULT_FILE_URI))
        .build();
  }

  private static String setting(String property, String env, String fallback) {
    String v = System.getProperty(property, System.getenv(env));
    return v == null || v.isBlank() ? fallback : v.trim();
  }

  /**
   * The next ID of the process-wide generator.
   *
   * @throws SnowIdException if the generator cannot be built (see the class documentation: the next
   *     call tries again), or as {@link Snowflake#nextId()}
   */
  public static long next() {
    return GENERATOR.get().nextId();
  }

  /**
   * The next ID of the process-wide generator in the named text form ({@code decimal}, {@code hex},
   * {@code base32}, {@code base32check}, {@code base36}, {@code base62}, {@code base62-legacy},
   * {@code base64url}; any case).
   *
   * @throws InvalidSettingException for an unknown format, before an ID is taken
   * @throws SnowIdException as {@link #next()}
   */
  public static String nextString(String format) {
    IdCodec codec = IdCodec.named(format);
    return codec.encode(next());
  }

  /**
   * The next ID of a process-wide generator on the {@code js53} layout: every ID it can issue until
   * its last instant (2093) is below 2^53, so it is exact as a JavaScript number.
   *
   * @throws SnowIdException if that generator cannot be built (the next call tries again), or as
   *     {@link Snowflake#nextId()}
   */
  public static long nextJs53() {
    return JS53.get().nextId();
  }

  /**
   * The process-wide generator, built now if it is not yet.
   *
   * @throws SnowIdException if it cannot be built (the next call tries again)
   */
  public static Snowflake generator() {
    return GENERATOR.get();
  }

  /**
   * Decodes an ID of the process-wide generator's layout (building the generator if it is not yet).
   *
   * @throws SnowIdException if the generator cannot be built (the next call tries again)
   */
  public static DecodedId decode(long id) {
    return GENERATOR.get().layout().decode(id);
  }
}
