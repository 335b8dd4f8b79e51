package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BenchCommandTest {

  @Test
  void bench_oneSecond_printsRateAsAFractionOfTheCap() {
    Cli r = Cli.run("bench", "--seconds", "1", "--threads", "2", "--no-progress");

    assertThat(r.exit()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out())
        .contains("cap           4,096,000 IDs/s per node")
        .contains("threads       2");
    Matcher ids = Pattern.compile("IDs           ([0-9,]+)").matcher(r.out());
    Matcher fraction = Pattern.compile("of the cap    ([0-9.]+)").matcher(r.out());
    assertThat(ids.find()).isTrue();
    assertThat(fraction.find()).isTrue();
    assertThat(Long.parseLong(ids.group(1).replace(",", ""))).isPositive();
    // a generator can never beat its layout's cap by more than the rounding of one second
    assertThat(Double.parseDouble(fraction.group(1))).isGreaterThan(0).isLessThan(1.01);
  }

  @Test
  void bench_progress_writesProgressLinesToStderr() {
    Cli r = Cli.run("bench", "--seconds", "1", "--progress", "--layout", "js53");

    assertThat(r.exit()).isZero();
    assertThat(r.err()).contains("\rbench: ").contains("IDs/s");
    assertThat(r.out()).contains("cap           128,000 IDs/s per node");
  }

  @ParameterizedTest
  @ValueSource(strings = {"--threads 0", "--threads 257", "--seconds 0", "--seconds 601", "-l no"})
  void bench_badInput_exits2WithOneLine(String args) {
    Cli r = Cli.run(("bench " + args).split(" "));

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(1);
  }
}
