package io.snowid.spring.boot.mybatis;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;

@TableName("payment")
public class Payment {
  @TableId(type = IdType.ASSIGN_ID)
  private Long id; // set by insert: a snowid ID

  private String payer;
  private long cents;

  public Payment() {}

  public Payment(String payer, long cents) {
    this.payer = payer;
    this.cents = cents;
  }

  public Long getId() {
    return id;
  }

  public void setId(Long id) {
    this.id = id;
  }

  public String getPayer() {
    return payer;
  }

  public void setPayer(String payer) {
    this.payer = payer;
  }

  public long getCents() {
    return cents;
  }

  public void setCents(long cents) {
    this.cents = cents;
  }
}
