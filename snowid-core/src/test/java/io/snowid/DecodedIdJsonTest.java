package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link DecodedId#toJson()}: the form {@code decode --json} and {@code GET /decode} print. */
class DecodedIdJsonTest {
  @Test
  void toJson_tweetId_printsIdAsStringTimestampFieldsAndSequence() {
    DecodedId d = Layout.twitter().decode(1541815603606036480L);

    assertThat(d.toJson())
        .isEqualTo(
            "{\"id\":\"1541815603606036480\",\"timestamp\":\"2022-06-28T16:07:40.105Z\","
                + "\"fields\":{\"datacenter\":11,\"worker\":26},\"sequence\":0}");
  }

  @Test
  void toJson_64BitLayout_printsTheIdUnsigned() {
    DecodedId d = Layout.preset("discord").decode(-1L);

    assertThat(d.toJson()).startsWith("{\"id\":\"18446744073709551615\",");
  }

  @Test
  void toJson_clockbackField_isAmongTheFields() {
    Layout l = Layout.parse("time=41,clockback=2,worker=8,sequence=12,epoch=2024-01-01T00:00:00Z");
    long id = (5L << 22) | (1L << 20) | (3L << 12) | 9;

    assertThat(l.decode(id).toJson())
        .isEqualTo(
            "{\"id\":\""
                + id
                + "\",\"timestamp\":\"2024-01-01T00:00:00.005Z\","
                + "\"fields\":{\"clockback\":1,\"worker\":3},\"sequence\":9}");
  }
}
