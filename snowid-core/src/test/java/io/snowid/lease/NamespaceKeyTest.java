package io.snowid.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.snowid.Layout;
import org.junit.jupiter.api.Test;

/**
 * A lease lives under the namespace key: the user's namespace name and the layout's ID space. Two
 * layouts that put IDs at the same 64-bit values share one key, whatever their fields are called;
 * two that do not, never. These vectors pin the key's form: processes of one fleet must compute the
 * same one.
 */
class NamespaceKeyTest {
  @Test
  void namespaceKey_twitter_isTheNameAndTheIdSpace() {
    assertThat(LeaseHolder.namespaceKey("orders", Layout.twitter()))
        .isEqualTo("orders.t41-n10-s12-e1288834974657-u1");
  }

  @Test
  void namespaceKey_fieldNamesAndSplits_doNotChangeIt() {
    String twitter = LeaseHolder.namespaceKey("default", Layout.twitter());
    String epoch = ",epoch=1288834974657,unit=1ms";
    assertThat(
            LeaseHolder.namespaceKey(
                "default", Layout.parse("time=41,worker=10,sequence=12" + epoch)))
        .isEqualTo(twitter);
    assertThat(
            LeaseHolder.namespaceKey(
                "default", Layout.parse("time=41,worker=5,datacenter=5,sequence=12" + epoch)))
        .isEqualTo(twitter);
    assertThat(
            LeaseHolder.namespaceKey(
                "default", Layout.parse("time=41,shard=2,process=3,machine=5,sequence=12" + epoch)))
        .isEqualTo(twitter);
  }

  @Test
  void namespaceKey_anythingThatMovesAnIdsValue_changesIt() {
    String epoch = ",epoch=1288834974657,unit=1ms";
    String base =
        LeaseHolder.namespaceKey("default", Layout.parse("time=41,worker=10,sequence=12" + epoch));
    assertThat(
            new String[] {
              LeaseHolder.namespaceKey(
                  "default",
                  Layout.parse("time=41,worker=10,sequence=12,epoch=1288834974658,unit=1ms")),
              LeaseHolder.namespaceKey(
                  "default",
                  Layout.parse("time=41,worker=10,sequence=12,epoch=1288834974657,unit=10ms")),
              LeaseHolder.namespaceKey(
                  "default", Layout.parse("time=42,worker=9,sequence=12" + epoch)),
              LeaseHolder.namespaceKey(
                  "default", Layout.parse("time=41,sequence=12,worker=10" + epoch)),
              LeaseHolder.namespaceKey(
                  "default", Layout.parse("time=41,worker=5,sequence=12,process=5" + epoch)),
              LeaseHolder.namespaceKey(
                  "default", Layout.parse("time=40,clockback=1,worker=10,sequence=12" + epoch)),
              LeaseHolder.namespaceKey(
                  "other", Layout.parse("time=41,worker=10,sequence=12" + epoch))
            })
        .doesNotContain(base)
        .doesNotHaveDuplicates();
  }

  @Test
  void namespaceKey_presets_arePinned() {
    assertThat(LeaseHolder.namespaceKey("default", Layout.preset("sonyflake")))
        .isEqualTo("default.t39-s8-n16-e1409529600000-u10");
    assertThat(LeaseHolder.namespaceKey("default", Layout.preset("discord")))
        .isEqualTo("default.t42-n10-s12-e1420070400000-u1");
  }
}
