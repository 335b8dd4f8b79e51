package io.snowid.spring.boot3mybatis;

import com.baomidou.mybatisplus.annotation.IdType;
import com.baomidou.mybatisplus.annotation.TableId;
import com.baomidou.mybatisplus.annotation.TableName;
import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import org.apache.ibatis.annotations.Mapper;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot 3.5 application with MyBatis-Plus's Boot 3 starter: an {@code ASSIGN_ID} and an
 * {@code ASSIGN_UUID} entity with a mapper each, and nothing about IDs but the snowid starter. Not
 * under {@code io.snowid.spring.boot3}, whose application would scan it; it leaves out JPA, which
 * that application uses.
 */
@SpringBootApplication(
    excludeName = {
      "org.springframework.boot.autoconfigure.orm.jpa.HibernateJpaAutoConfiguration",
      "org.springframework.boot.autoconfigure.data.jpa.JpaRepositoriesAutoConfiguration"
    })
public class Boot3LedgerApp {
  @TableName("payment")
  public static class Payment {
    @TableId(type = IdType.ASSIGN_ID)
    private Long id;

    private String payer;

    public Payment() {}

    public Payment(String payer) {
      this.payer = payer;
    }

    public Long getId() {
      return id;
    }

    public String getPayer() {
      return payer;
    }
  }

  @TableName("ticket")
  public static class Ticket {
    @TableId(type = IdType.ASSIGN_UUID)
    private String code;

    private String title;

    public Ticket() {}

    public Ticket(String title) {
      this.title = title;
    }

    public String getCode() {
      return code;
    }

    public String getTitle() {
      return title;
    }
  }

  @Mapper
  public interface Payments extends BaseMapper<Payment> {}

  @Mapper
  public interface Tickets extends BaseMapper<Ticket> {}
}
