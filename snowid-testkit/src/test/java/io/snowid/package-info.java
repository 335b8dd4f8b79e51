/**
 * The generator's tests: snowid-core's {@code Snowflake} and {@code SnowId} facade, its time
 * sources and compact IDs, and the generator on real leases across processes. They test
 * snowid-core, not the testkit.
 *
 * <p>They live in snowid-testkit because they need the testkit's {@code ManualClock} (time that
 * moves only when a test moves it) and {@code IdChecker} (uniqueness and order across threads), and
 * the testkit depends on snowid-core: core's tests cannot use it without a cycle between the two
 * modules. They are in package {@code io.snowid}, as the generator is, so that they can reach its
 * package-private parts; on the class path the two modules' classes share that package.
 *
 * <p>snowid-core's own tests cover what needs no testkit: layouts, codecs, node sources and leases.
 */
package io.snowid;
