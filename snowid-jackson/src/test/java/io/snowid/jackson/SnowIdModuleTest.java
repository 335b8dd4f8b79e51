package io.snowid.jackson;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.snowid.InvalidSettingException;
import io.snowid.codec.IdCodec;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.json.JsonMapper;

class SnowIdModuleTest {
  /** 2^53 + 1: the first integer a JavaScript Number cannot hold. */
  static final long ABOVE_2_53 = (1L << 53) + 1;

  @Retention(RetentionPolicy.RUNTIME)
  @interface EntityId {}

  record Order(@IdString long id, @IdString(format = "base62") Long customer, long quantity) {}

  record Tagged(@EntityId long id, long plain) {}

  record Batch(@IdString List<Long> ids, @IdString Long[] more) {}

  public static class Bean {
    @IdString private Long id;
    private String name;

    public Long getId() {
      return id;
    }

    public void setId(Long id) {
      this.id = id;
    }

    public String getName() {
      return name;
    }

    public void setName(String name) {
      this.name = name;
    }
  }

  private final JsonMapper mapper = JsonMapper.builder().addModule(new SnowIdModule()).build();

  @Test
  void write_annotatedLongs_areStringsInTheirForm() {
    String json = mapper.writeValueAsString(new Order(ABOVE_2_53, 1541815603606036480L, 3));

    assertThat(json)
        .isEqualTo("{\"id\":\"9007199254740993\",\"customer\":\"1ptWyK4WgZU\",\"quantity\":3}");
  }

  @Test
  void roundTrip_valuesAbove2To53_areExact() {
    SplittableRandom random = new SplittableRandom(53);
    for (long id :
        new long[] {ABOVE_2_53, Long.MAX_VALUE, (1L << 62) + 7, 1541815603606036481L, 1L}) {
      roundTrip(id, random.nextLong(1L << 53, Long.MAX_VALUE));
    }
    for (int i = 0; i < 1000; i++) {
      roundTrip(random.nextLong(1L << 53, Long.MAX_VALUE), random.nextLong(1, Long.MAX_VALUE));
    }
  }

  private void roundTrip(long id, long customer) {
    Order order = new Order(id, customer, 1);
    assertThat(mapper.readValue(mapper.writeValueAsString(order), Order.class)).isEqualTo(order);
  }

  @Test
  void read_numbersAndStrings_bothGiveTheId() {
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
  }

  @Test
  void read_integerAboveLongMax_isReadAsUnsigned64Bits() {
    Order o =
        mapper.readValue(
            "{\"id\":18446744073709551615,\"customer\":null,\"quantity\":0}", Order.class);

    assertThat(o.id()).isEqualTo(-1L);
    assertThat(mapper.writeValueAsString(o)).contains("\"id\":\"18446744073709551615\"");
  }

  @Test
  void read_integerAbove2To64_failsNamingTheValue() {
    assertThatThrownBy(
            () ->
                mapper.readValue(
                    "{\"id\":18446744073709551616,\"customer\":null,\"quantity\":0}", Order.class))
        .isInstanceOf(InvalidFormatException.class)
        .hasMessageContaining("18446744073709551616")
        .hasMessageContaining("not an ID");
  }

  @Test
  void read_stringInTheWrongForm_failsNamingValueAndForm() {
    assertThatThrownBy(
            () ->
                mapper.readValue(
                    "{\"id\":\"12\",\"customer\":\"1541815603606036480\",\"quantity\":0}",
                    Order.class))
        .isInstanceOf(InvalidFormatException.class)
        .hasMessageContaining("1541815603606036480")
        .hasMessageContaining("not a base62 ID");
    assertThatThrownBy(() -> mapper.readValue("{\"id\":\"12x\",\"quantity\":0}", Order.class))
        .isInstanceOf(InvalidFormatException.class)
        .hasMessageContaining("not a decimal ID");
  }

  @Test
  void read_nullForPrimitive_failsAndForWrapper_isNull() {
    // Jackson 3 refuses null for primitives by itself (FAIL_ON_NULL_FOR_PRIMITIVES, on by default)
    assertThatThrownBy(() -> mapper.readValue("{\"id\":null,\"quantity\":0}", Order.class))
        .isInstanceOf(MismatchedInputException.class)
        .hasMessageContaining("null");
    // and with it off, the module does: an ID of 0 would be a silent error
    JsonMapper lenient =
        JsonMapper.builder()
            .addModule(new SnowIdModule())
            .disable(tools.jackson.databind.DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();
    assertThatThrownBy(() -> lenient.readValue("{\"id\":null,\"quantity\":0}", Order.class))
        .isInstanceOf(MismatchedInputException.class)
        .hasMessageContaining("null is not an ID");
    assertThat(
            mapper.readValue("{\"id\":1,\"customer\":null,\"quantity\":0}", Order.class).customer())
        .isNull();
  }

  @Test
  void read_otherToken_fails() {
    assertThatThrownBy(() -> mapper.readValue("{\"id\":1.5}", Order.class))
        .isInstanceOf(MismatchedInputException.class);
    assertThatThrownBy(() -> mapper.readValue("{\"id\":true}", Order.class))
        .isInstanceOf(MismatchedInputException.class);
  }

  @Test
  void unannotatedLongs_stayNumbers() {
    assertThat(mapper.writeValueAsString(new Tagged(ABOVE_2_53, ABOVE_2_53)))
        .isEqualTo("{\"id\":9007199254740993,\"plain\":9007199254740993}");
  }

  @Test
  void idAnnotation_marksItsPropertiesInTheDefaultForm() {
    JsonMapper hex =
        JsonMapper.builder()
            .addModule(SnowIdModule.builder().format("hex").idAnnotation(EntityId.class).build())
            .build();

    String json = hex.writeValueAsString(new Tagged(ABOVE_2_53, 5));

    assertThat(json).isEqualTo("{\"id\":\"0020000000000001\",\"plain\":5}");
    assertThat(hex.readValue(json, Tagged.class)).isEqualTo(new Tagged(ABOVE_2_53, 5));
  }

  @Test
  void collectionsAndArraysOfIds_areStrings() {
    Batch batch = new Batch(List.of(ABOVE_2_53, 2L), new Long[] {Long.MAX_VALUE});

    String json = mapper.writeValueAsString(batch);

    assertThat(json)
        .isEqualTo("{\"ids\":[\"9007199254740993\",\"2\"],\"more\":[\"9223372036854775807\"]}");
    Batch back =
        mapper.readValue(
            "{\"ids\":[9007199254740993,\"2\"],\"more\":[\"9223372036854775807\"]}", Batch.class);
    assertThat(back.ids()).containsExactly(ABOVE_2_53, 2L);
    assertThat(back.more()).containsExactly(Long.MAX_VALUE);
  }

  @Test
  void bean_annotatedField_coversGetterAndSetter() {
    Bean bean = new Bean();
    bean.setId(ABOVE_2_53);
    bean.setName("a");

    String json = mapper.writeValueAsString(bean);

    assertThat(json).isEqualTo("{\"id\":\"9007199254740993\",\"name\":\"a\"}");
    assertThat(mapper.readValue(json, Bean.class).getId()).isEqualTo(ABOVE_2_53);
  }

  @Test
  void everyForm_roundTrips() {
    for (String form : IdCodec.names()) {
      JsonMapper m =
          JsonMapper.builder().addModule(SnowIdModule.builder().format(form).build()).build();
      Order o = new Order(ABOVE_2_53, 7L, 0);
      String json = m.writeValueAsString(o);
      assertThat(json).contains("\"id\":\"" + IdCodec.named(form).encode(ABOVE_2_53) + "\"");
      assertThat(m.readValue(json, Order.class).id()).as(form).isEqualTo(ABOVE_2_53);
    }
  }

  @Test
  void builder_badSettings_failNamingTheSetting() {
    assertThatThrownBy(() -> SnowIdModule.builder().format("base99"))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("format")
        .hasMessageContaining("base62");
    assertThat(SnowIdModule.builder().idAnnotation(Deprecated.class).build()).isNotNull();
    assertThatThrownBy(() -> SnowIdModule.builder().idAnnotation(SuppressWarnings.class))
        .isInstanceOf(InvalidSettingException.class)
        .hasMessageContaining("idAnnotation");
  }

  @Test
  void read_negativeNumber_failsAsTheStringDoes() {
    assertThatThrownBy(
            () -> mapper.readValue("{\"id\":-1,\"customer\":null,\"quantity\":0}", Order.class))
        .isInstanceOf(InvalidFormatException.class)
        .hasMessageContaining("not an ID");
  }
}
