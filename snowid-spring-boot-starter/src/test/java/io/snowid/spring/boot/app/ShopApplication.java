package io.snowid.spring.boot.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The tests' small Boot application: two entities with {@code @SnowflakeId} ids and a controller.
 */
@SpringBootApplication
public class ShopApplication {}
