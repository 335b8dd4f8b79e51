package io.snowid.jackson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The Jackson 2 module: the same behaviour as {@link SnowIdModuleTest}'s, on Jackson 2. */
class SnowIdJackson2ModuleTest {
  static final long ABOVE_2_53 = (1L << 53) + 1;

  @Retention(RetentionPolicy.RUNTIME)
  @interface EntityId {}

  record Order(@IdString long id, @IdString(format = "base62") Long customer, long quantity) {}

  record Tagged(@EntityId long id, long plain) {}

  record Batch(@IdString List<Long> ids) {}

  private final ObjectMapper mapper = new ObjectMapper().registerModule(new SnowIdJackson2Module());

  @Test
  void write_annotatedLongs_areStringsInTheirForm() throws Exception {
    assertThat(mapper.writeValueAsString(new Order(ABOVE_2_53, 1541815603606036480L, 3)))
        .isEqualTo("{\"id\":\"9007199254740993\",\"customer\":\"1ptWyK4WgZU\",\"quantity\":3}");
  }

  @Test
  void roundTrip_valuesAbove2To53_areExact() throws Exception {
    SplittableRandom random = new SplittableRandom(2);
    for (int i = 0; i < 1000; i++) {
      Order o =
          new Order(
              random.nextLong(1L << 53, Long.MAX_VALUE), random.nextLong(1, Long.MAX_VALUE), i);
      assertThat(mapper.readValue(mapper.writeValueAsString(o), Order.class)).isEqualTo(o);
    }
  }

  @Test
  void read_numbersAndStrings_bothGiveTheId() throws Exception {
    Order fromNumbers =
        mapper.readValue(
            "{\"id\":9007199254740993,\"customer\":1541815603606036480,\"quantity\":2}",
            Order.class);
    Order fromStrings =
        mapper.readValue(
            "{\"id\":\"9007199254740993\",\"customer\":\"1ptWyK4WgZU\",\"quantity\":2}",
            Order.class);

    assertThat(fromNumbers).isEqualTo(new Order(ABOVE_2_53, 1541815603606036480L, 2));
    assertThat(fromStrings).isEqualTo(fromNumbers);
    assertThat(mapper.readValue("{\"id\":18446744073709551615}", Order.class).id()).isEqualTo(-1L);
  }

  @Test
  void read_badInput_failsNamingValueAndForm() {
    assertThatThrownBy(() -> mapper.readValue("{\"id\":\"12x\"}", Order.class))
        .isInstanceOf(InvalidFormatException.class)
        .hasMessageContaining("12x")
        .hasMessageContaining("not a decimal ID");
    assertThatThrownBy(() -> mapper.readValue("{\"id\":18446744073709551616}", Order.class))
        .isInstanceOf(InvalidFormatException.class)
        .hasMessageContaining("not an ID");
    assertThatThrownBy(() -> mapper.readValue("{\"id\":null}", Order.class))
        .isInstanceOf(MismatchedInputException.class)
        .hasMessageContaining("null is not an ID");
  }

  @Test
  void idAnnotationAndCollections_areStrings() throws Exception {
    ObjectMapper hex =
        new ObjectMapper()
            .registerModule(
                SnowIdJackson2Module.builder().format("hex").idAnnotation(EntityId.class).build());

    assertThat(hex.writeValueAsString(new Tagged(ABOVE_2_53, 5)))
        .isEqualTo("{\"id\":\"0020000000000001\",\"plain\":5}");
    assertThat(hex.readValue("{\"id\":\"0020000000000001\",\"plain\":5}", Tagged.class))
        .isEqualTo(new Tagged(ABOVE_2_53, 5));
    assertThat(mapper.writeValueAsString(new Batch(List.of(ABOVE_2_53))))
        .isEqualTo("{\"ids\":[\"9007199254740993\"]}");
    assertThat(mapper.readValue("{\"ids\":[9007199254740993]}", Batch.class).ids())
        .containsExactly(ABOVE_2_53);
  }

  @Test
  void read_negativeNumber_failsAsTheStringDoes() {
    assertThatThrownBy(
            () -> mapper.readValue("{\"id\":-1,\"customer\":null,\"quantity\":0}", Order.class))
        .isInstanceOf(InvalidFormatException.class)
        .hasMessageContaining("not an ID");
  }
}
