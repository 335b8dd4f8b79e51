package io.snowid.spring.boot.app;

import org.springframework.data.jpa.repository.JpaRepository;

public interface Orders extends JpaRepository<Order, Long> {}
