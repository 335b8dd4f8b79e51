package io.snowid.hibernate;

import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** The test entities; every table name is this test's own. */
final class Entities {
  private Entities() {}

  @Entity(name = "Order")
  @Table(name = "snowid_hib_order")
  static class Order {
    @Id @SnowflakeId Long id;
    String item;

    Order() {}

    Order(String item) {
      this.item = item;
    }
  }

  @Entity(name = "Line")
  @Table(name = "snowid_hib_line")
  static class Line {
    @Id @SnowflakeId long id;
    int quantity;
  }

  @Entity(name = "Coupon")
  @Table(name = "snowid_hib_coupon")
  static class Coupon {
    @Id
    @SnowflakeId(format = "base62")
    String code;

    String owner;
  }

  @Entity(name = "TooSmall")
  @Table(name = "snowid_hib_bad")
  static class TooSmall {
    @Id @SnowflakeId Integer id;
  }

  @Entity(name = "BadFormat")
  @Table(name = "snowid_hib_badformat")
  static class BadFormat {
    @Id
    @SnowflakeId(format = "base99")
    String id;
  }
}
