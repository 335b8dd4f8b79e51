package io.snowid.spring.boot.app;

import io.snowid.hibernate.SnowflakeId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity(name = "BootOrder")
@Table(name = "snowid_boot_order")
public class Order {
  @Id @SnowflakeId private Long id;
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
