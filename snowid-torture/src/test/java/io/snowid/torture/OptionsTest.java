package io.snowid.torture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OptionsTest {
  @Test
  void parse_defaults_fileSixtySecondsEightWorkersEveryFault() throws Exception {
    Options o = Options.parse();

    assertThat(o.coordinator()).isEqualTo("file:");
    assertThat(o.seconds()).isEqualTo(60);
    assertThat(o.workers()).isEqualTo(8);
    assertThat(o.ttlMillis()).isEqualTo(2000);
    assertThat(o.faults()).containsExactly(FaultKind.values());
    assertThat(o.budgetBytes()).isEqualTo(2L << 30);
    assertThat(o.mixed()).isTrue();
  }

  @Test
  void parse_zookeeperAndEtcd_networkCoordinatorsWithTheNetworkLeaseTime() throws Exception {
    for (String uri : new String[] {"zookeeper://zk1:2181/snowid", "etcd://e1:2379?prefix=p"}) {
      Options o = Options.parse("--coordinator", uri);

      assertThat(o.coordinator()).isEqualTo(uri.substring(0, uri.indexOf("//") + 2));
      assertThat(o.network()).isTrue();
      assertThat(o.ttlMillis()).isEqualTo(5000);
    }
    assertThatThrownBy(() -> Options.parse("--coordinator", "zk://x"))
        .hasMessageEndingWith("jdbc:mariadb://, zookeeper://, etcd://");
  }

  @Test
  void parse_availability_offByDefaultOnWhenGiven() throws Exception {
    assertThat(Options.parse().availability()).isFalse();
    assertThat(Options.parse("--availability", "--seconds", "600").availability()).isTrue();
    assertThat(Options.help()).contains("--availability");
  }

  @Test
  void parse_noMixed_oneConfigurationInEverySlot() throws Exception {
    assertThat(Options.parse("--no-mixed").mixed()).isFalse();
    assertThat(Options.parse("--no-mixed", "--mixed").mixed()).isTrue();
    assertThat(Options.help()).contains("--mixed", "--no-mixed");
  }

  @Test
  void parse_badValues_nameTheOptionAndTheRange() {
    assertThatThrownBy(() -> Options.parse("--seconds", "5"))
        .hasMessage("--seconds = 5 is invalid; allowed: 10..86400");
    assertThatThrownBy(() -> Options.parse("--coordinator", "zk://x"))
        .hasMessageStartingWith("--coordinator zk://x is not supported; allowed: file:");
    assertThatThrownBy(() -> Options.parse("--faults", "kill,meteor"))
        .hasMessageStartingWith("--faults: unknown fault kind meteor; allowed: [kill, pause,");
    assertThatThrownBy(() -> Options.parse("--budget", "1k"))
        .hasMessage("--budget = 1k is invalid; allowed: 16m..1024g");
    assertThatThrownBy(() -> Options.parse("--frobnicate", "1"))
        .hasMessage("unknown option --frobnicate (see --help)");
  }

  @Test
  void help_listsEveryFaultKind() {
    String help = Options.help();
    for (FaultKind k : FaultKind.values()) {
      assertThat(help).contains(k.label());
    }
  }
}
