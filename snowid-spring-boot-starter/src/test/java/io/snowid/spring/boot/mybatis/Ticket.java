package io.snowid.spring.boot.mybatis;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;

@TableName("ticket")
public class Ticket {
  @TableId(type = IdType.ASSIGN_UUID)
  private String code; // a snowid ID in snowid.mybatis-plus.uuid-form

  private String title;

  public Ticket() {}

  public Ticket(String title) {
    this.title = title;
  }

  public String getCode() {
    return code;
  }

  public void setCode(String code) {
    this.code = code;
  }

  public String getTitle() {
    return title;
  }

  public void setTitle(String title) {
    this.title = title;
  }
}
