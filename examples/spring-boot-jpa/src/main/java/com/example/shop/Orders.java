package com.example.shop;

import org.springframework.data.jpa.repository.JpaRepository;

public interface Orders extends JpaRepository<Order, Long> {}
