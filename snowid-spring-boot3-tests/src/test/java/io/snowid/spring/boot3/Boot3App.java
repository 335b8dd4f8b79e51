package io.snowid.spring.boot3;

import io.snowid.hibernate.SnowflakeId;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** A Spring Boot 3.5 application with an entity whose id is {@code @SnowflakeId}. */
@SpringBootApplication
public class Boot3App {
  @Entity(name = "Boot3Item")
  @Table(name = "snowid_boot3_item")
  public static class Item {
    @Id @SnowflakeId private Long id;
    private String name;

    protected Item() {}

    public Item(String name) {
      this.name = name;
    }

    public Long getId() {
      return id;
    }

    public String getName() {
      return name;
    }
  }

  public record NewItem(String name) {}

  @RestController
  public static class ItemController {
    private final Items items;

    public ItemController(Items items) {
      this.items = items;
    }

    @PostMapping("/items")
    public Item create(@RequestBody NewItem item) {
      return items.save(new Item(item.name()));
    }

    @GetMapping("/items/{id}")
    public ResponseEntity<Item> get(@PathVariable("id") long id) {
      return ResponseEntity.of(items.findById(id));
    }
  }
}
