package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LayoutCommandTest {

  private static String report(String layout, String now) {
    StringWriter w = new StringWriter();
    LayoutCommand.report(Layout.preset(layout), layout, Instant.parse(now), new PrintWriter(w));
    return w.toString();
  }

  @Test
  void layout_twitter_printsBitTableLifetimeNodesAndCap() {
    Cli r = Cli.run("layout", "--layout", "twitter");

    assertThat(r.exit()).isZero();
    assertThat(r.out())
        .contains("63      (sign, 0)   1      0")
        .contains("62..22  time        41     2,199,023,255,551")
        .contains("21..17  datacenter  5      31")
        .contains("16..12  worker      5      31")
        .contains("11..0   sequence    12     4,095")
        .contains("epoch         2010-11-04T01:42:54.657Z")
        .contains("last instant  2080-07-10T17:30:30.208Z")
        .containsPattern("years left    [0-9]+\\.[0-9]")
        .contains("node count    1,024")
        .contains("IDs/s/node    4,096,000")
        .doesNotContain("WARNING");
  }

  @Test
  void layout_spec_isAccepted() {
    Cli r = Cli.run("layout", "--layout", "time=41,worker=10,sequence=12,epoch=1490346283706");

    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("layout        (spec)").contains("21..12  worker");
  }

  @Test
  void report_fewerThanTenYearsLeft_warns() {
    assertThat(report("twitter", "2075-01-01T00:00:00Z"))
        .contains("years left    5.5")
        .contains("WARNING: only 5.5 years left (until 2080-07-10T17:30:30.208Z)");
  }

  @Test
  void report_tenYearsOrMoreLeft_doesNotWarn() {
    assertThat(report("twitter", "2070-01-01T00:00:00Z")).doesNotContain("WARNING");
  }

  @Test
  void layout_expiredBaidu_warnsItCanOnlyDecode() {
    Cli r = Cli.run("layout", "--layout", "baidu");

    assertThat(r.exit()).isZero();
    assertThat(r.out())
        .contains("years left    none (expired)")
        .contains("WARNING: this layout expired on 2024-11-20T13:24:15.999Z");
  }

  @Test
  void layout_64Bits_hasNoSignRow() {
    assertThat(Cli.run("layout", "-l", "discord").out())
        .doesNotContain("sign")
        .contains("63..22  time");
  }

  @Test
  void layout_unknown_exits2WithOneLineListingPresets() {
    Cli r = Cli.run("layout", "--layout", "nope");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.errLines()).hasSize(1);
    assertThat(r.err()).contains("twitter").contains("discord");
  }

  @Test
  void layout_wrappingInt32_printsTheWrapWindowInsteadOfALastInstant() {
    Cli r = Cli.run("layout", "--layout", "int32");

    assertThat(r.exit()).isZero();
    assertThat(r.out())
        .contains("wraps every   34m57s")
        .doesNotContain("last instant")
        .doesNotContain("WARNING");
  }
}
