package io.snowid.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class RangeCommandTest {
  private static final Layout TWITTER = Layout.twitter();

  @Test
  void range_aDay_printsItsFirstAndLastIdAndTheSql() {
    Cli r = Cli.run("range", "--from", "2022-06-28", "--to", "2022-06-28T23:59:59.999Z");

    long first = TWITTER.firstIdAt(Instant.parse("2022-06-28T00:00:00Z"));
    long last = TWITTER.lastIdAt(Instant.parse("2022-06-28T23:59:59.999Z"));
    assertThat(r.exit()).isZero();
    assertThat(r.out())
        .isEqualTo(
            String.join(
                System.lineSeparator(),
                "from   2022-06-28T00:00:00Z",
                "to     2022-06-28T23:59:59.999Z",
                "first  " + first,
                "last   " + last,
                "sql    id BETWEEN " + first + " AND " + last,
                ""));
    assertThat(1541815603606036480L).isBetween(first, last); // a tweet of that day
  }

  @Test
  void range_json_isWhatTheHttpServiceReturns() {
    Cli r =
        Cli.run(
            "range",
            "--from",
            "2026-11-27",
            "--to",
            "2026-11-27",
            "--layout",
            "sonyflake",
            "--json");

    Layout sonyflake = Layout.preset("sonyflake");
    Instant day = Instant.parse("2026-11-27T00:00:00Z");
    assertThat(r.exit()).isZero();
    assertThat(r.out().strip())
        .isEqualTo(
            "{\"from\":\"2026-11-27T00:00:00Z\",\"to\":\"2026-11-27T00:00:00Z\",\"first\":\""
                + sonyflake.firstIdAt(day)
                + "\",\"last\":\""
                + sonyflake.lastIdAt(day)
                + "\",\"layout\":\""
                + sonyflake.spec()
                + "\"}");
  }

  @Test
  void range_badInstant_exits2NamingTheOptionAndTheForms() {
    Cli r = Cli.run("range", "--from", "yesterday", "--to", "2026-11-27");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().strip())
        .isEqualTo(
            "snowid: --from = yesterday is invalid; allowed: an ISO-8601 instant"
                + " (2026-11-27T08:00:00Z) or a date (2026-11-27)");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void range_beforeTheEpoch_exits2NamingTheLayoutsLifetime() {
    Cli r = Cli.run("range", "--from", "2001-01-01", "--to", "2026-11-27");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().strip())
        .startsWith(
            "snowid: --from = 2001-01-01 is invalid; allowed:"
                + " 2010-11-04T01:42:54.657Z..2080-07-10T17:30:30.208Z, the lifetime of layout");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void range_leapSecond_exits2_insteadOfReadingItAsTheStartOfSecond59() {
    Cli r = Cli.run("range", "--from", "2016-12-31", "--to", "2016-12-31T23:59:60Z");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().strip())
        .startsWith(
            "snowid: --to = 2016-12-31T23:59:60Z is invalid; allowed: no leap second (:60)");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void range_lowerCaseInstant_isAnInstant() {
    Cli r = Cli.run("range", "--from", "2026-11-27t08:00:00z", "--to", "2026-11-27T08:00:00Z");

    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("from   2026-11-27T08:00:00Z");
  }

  @Test
  void range_fromAfterTo_exits2() {
    Cli r = Cli.run("range", "--from", "2026-11-28", "--to", "2026-11-27");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err())
        .contains(
            "--from = 2026-11-28 is invalid; allowed: an instant not after to (2026-11-27T00:00:00Z)");
  }

  @Test
  void range_wrappingLayout_exits2SayingWhy() {
    Cli r = Cli.run("range", "--from", "2026-11-27", "--to", "2026-11-27", "--layout", "int32");

    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("repeats its IDs every 34m57");
    assertThat(r.err().strip().lines()).hasSize(1);
  }
}
