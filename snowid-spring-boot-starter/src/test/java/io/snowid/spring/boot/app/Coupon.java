package io.snowid.spring.boot.app;

import io.snowid.hibernate.SnowflakeId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

@Entity(name = "BootCoupon")
@Table(name = "snowid_boot_coupon")
public class Coupon {
  @Id
  @SnowflakeId(format = "base62")
  private String code;

  private long orderId;

  protected Coupon() {}

  public Coupon(long orderId) {
    this.orderId = orderId;
  }

  public String getCode() {
    return code;
  }

  public long getOrderId() {
    return orderId;
  }
}
