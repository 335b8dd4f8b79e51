package io.snowid.spring.boot.mybatis;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The MyBatis-Plus tests' small Boot application: {@link Payment} ({@code ASSIGN_ID}) and {@link
 * Ticket} ({@code ASSIGN_UUID}) with a mapper each, and nothing about IDs but the starter. It
 * leaves out JPA and Redis, which the starter's test class path has for the other test application.
 */
@SpringBootApplication(
    excludeName = {
      "org.springframework.boot.hibernate.autoconfigure.HibernateJpaAutoConfiguration",
      "org.springframework.boot.data.jpa.autoconfigure.DataJpaRepositoriesAutoConfiguration",
      "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
      "org.springframework.boot.data.redis.autoconfigure.DataRedisRepositoriesAutoConfiguration"
    })
public class LedgerApplication {}
