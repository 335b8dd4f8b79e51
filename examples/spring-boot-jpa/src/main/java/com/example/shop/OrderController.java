package com.example.shop;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
@RequestMapping("/orders")
public class OrderController {
  private final Orders orders;

  public OrderController(Orders orders) {
    this.orders = orders;
  }

  public record NewOrder(String item) {}

  @PostMapping
  public Order create(@RequestBody NewOrder order) {
    return orders.save(new Order(order.item()));
  }

  /** Takes the id as the string the JSON gave, or as a number. */
  @GetMapping("/{id}")
  public ResponseEntity<Order> get(@PathVariable long id) {
    return ResponseEntity.of(orders.findById(id));
  }
}
