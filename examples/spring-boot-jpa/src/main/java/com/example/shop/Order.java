package com.example.shop;

import io.snowid.hibernate.SnowflakeId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

/** An order whose primary key is a Snowflake ID, assigned by Hibernate before the insert. */
@Entity
@Table(name = "example_orders")
public class Order {
  @Id @SnowflakeId private Long id; // reaches JSON as a string: "id":"1541815603606036480"

  private String item;

  protected Order() {}

  public Order(String item) {
    this.item = item;
  }

  public Long getId() {
    return id;
  }

  public String getItem() {
    return item;
  }
}
