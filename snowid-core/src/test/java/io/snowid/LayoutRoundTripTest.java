package io.snowid;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Seeded randomized properties over random layouts; the seed is printed to reproduce a failure. */
class LayoutRoundTripTest {
  private static final long SEED = Long.getLong("snowid.seed", System.nanoTime());

  @Test
  void decode_composeOfRandomValues_returnsTheValues() {
    System.out.println("LayoutRoundTripTest seed: -Dsnowid.seed=" + SEED);
    SplittableRandom random = new SplittableRandom(SEED);
    for (int layouts = 0; layouts < 2_000; layouts++) {
      Layout layout = randomLayout(random);
      assertThat(Layout.parse(layout.spec())).as("seed %d", SEED).isEqualTo(layout);
      for (int i = 0; i < 200; i++) {
        long[] values = new long[layout.fields().size()];
        for (int f = 0; f < values.length; f++) {
          Layout.Field field = layout.fields().get(f);
          long max = field.name().equals("time") ? layout.maxTime() : field.max();
          values[f] = max == Long.MAX_VALUE ? random.nextLong() >>> 1 : random.nextLong(max + 1);
        }
        long id = layout.compose(values);
        DecodedId d = layout.decode(id);
        for (int f = 0; f < values.length; f++) {
          assertThat(d.field(layout.fields().get(f).name()))
              .as("seed %d layout %s field %s", SEED, layout, layout.fields().get(f).name())
              .isEqualTo(values[f]);
        }
        assertThat(d.time()).isEqualTo(values[0 + indexOf(layout, "time")]);
        if (layout.totalBits() < 64) {
          assertThat(id).as("seed %d layout %s", SEED, layout).isNotNegative();
        }
      }
    }
  }

  private static int indexOf(Layout layout, String name) {
    for (int i = 0; i < layout.fields().size(); i++) {
      if (layout.fields().get(i).name().equals(name)) {
        return i;
      }
    }
    throw new AssertionError(name);
  }

  static Layout randomLayout(SplittableRandom random) {
    int total = random.nextInt(4, 65);
    List<String> names = new ArrayList<>(List.of("datacenter", "worker", "process", "shard"));
    Collections.shuffle(names, new java.util.Random(random.nextLong()));
    int nodeCount = random.nextInt(0, Math.min(4, total - 2) + 1);
    boolean clockback = total - nodeCount >= 3 && random.nextBoolean();
    int bitFields = 2 + nodeCount + (clockback ? 1 : 0);
    // split `total` into bitFields positive widths, none above 63
    int[] widths = new int[bitFields];
    int left = total;
    for (int i = 0; i < bitFields; i++) {
      int remainingFields = bitFields - i - 1;
      int max = Math.min(63, left - remainingFields);
      widths[i] = i == bitFields - 1 ? left : random.nextInt(1, max + 1);
      left -= widths[i];
    }
    if (widths[bitFields - 1] > 63) {
      return randomLayout(random);
    }
    // time first, then a shuffle of the rest with sequence (and clockback) below time
    List<String> order = new ArrayList<>(names.subList(0, nodeCount));
    order.add("sequence");
    if (clockback) {
      order.add("clockback");
    }
    Collections.shuffle(order, new java.util.Random(random.nextLong()));
    order.add(0, "time");
    StringBuilder spec = new StringBuilder();
    for (int i = 0; i < bitFields; i++) {
      spec.append(order.get(i)).append('=').append(widths[i]).append(',');
    }
    spec.append("epoch=").append(random.nextLong(1_700_000_000_000L));
    int unit = new int[] {1, 10, 1000}[random.nextInt(3)];
    spec.append(",unit=").append(unit == 1000 ? "1s" : unit + "ms");
    try {
      return Layout.parse(spec.toString());
    } catch (InvalidSettingException e) {
      if (e.setting().equals("layout.time")) {
        return randomLayout(random); // a wide time field in a coarse unit outlives Unix millis
      }
      throw e;
    }
  }
}
