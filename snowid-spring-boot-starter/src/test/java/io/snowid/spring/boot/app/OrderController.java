package io.snowid.spring.boot.app;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class OrderController {
  private final Orders orders;

  public OrderController(Orders orders) {
    this.orders = orders;
  }

  /** The order as JSON, its id a string. */
  @GetMapping("/orders/{id}")
  public ResponseEntity<Order> get(@PathVariable("id") long id) {
    return ResponseEntity.of(orders.findById(id));
  }

  public record NewOrder(String item) {}

  @PostMapping("/orders")
  public Order create(@RequestBody NewOrder order) {
    return orders.save(new Order(order.item()));
  }
}
