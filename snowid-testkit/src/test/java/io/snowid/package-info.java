/**
 * The generator's tests that need the testkit's own API: processes issuing through {@code
 * IssuerJvm} ({@code MixedConfigurationsProcessTest}), and generators leasing from the {@code
 * memory:} backend ({@code OneHolderPerJvmTest}). They test snowid-core, not the testkit; the
 * generator's other tests are snowid-core's own.
 *
 * <p>They are in package {@code io.snowid}, as the generator is, so that they can reach its
 * package-private parts; on the class path the two modules' classes share that package.
 */
package io.snowid;
