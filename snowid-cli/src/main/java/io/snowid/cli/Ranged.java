package io.snowid.cli;

import io.snowid.InvalidSettingException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Whole-number options and their ranges. A value that is not a number, or is outside the range,
 * gets the message every bad setting gets ({@code count = abc is invalid; allowed: 1..10000000}),
 * instead of picocli's "'abc' is not a long", which does not say what would do.
 */
final class Ranged {
  private Ranged() {}

  /** A value the option does not take; {@link Errors} prints its message as it is. */
  static final class OutOfRange extends TypeConversionException {
    private static final long serialVersionUID = 1L;

    OutOfRange(String setting, String value, long min, long max) {
      super(new InvalidSettingException(setting, Errors.cut(value), min + ".." + max).getMessage());
    }
  }

  static long parse(String setting, String value, long min, long max) {
    long n;
    try {
      n = Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new OutOfRange(setting, value, min, max);
    }
    if (n < min || n > max) {
      throw new OutOfRange(setting, value.trim(), min, max);
    }
    return n;
  }

  /** {@code generate -n}. */
  static final class Count implements ITypeConverter<Long> {
    @Override
    public Long convert(String value) {
      return parse("count", value, 1, GenerateCommand.MAX_COUNT);
    }
  }

  /** {@code serve --port}. */
  static final class Port implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      return (int) parse("port", value, 0, 65_535);
    }
  }

  /** {@code serve --backlog}. */
  static final class Backlog implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      return (int) parse("backlog", value, 1, io.snowid.server.ServerConfig.MAX_BACKLOG);
    }
  }

  /** {@code serve --stop-timeout}, in seconds. */
  static final class StopTimeout implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      return (int) parse("stop-timeout", value, 0, 600);
    }
  }

  /** {@code bench --threads}. */
  static final class Threads implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      return (int) parse("threads", value, 1, 256);
    }
  }

  /** {@code bench --seconds}. */
  static final class Seconds implements ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      return (int) parse("seconds", value, 1, 600);
    }
  }
}
