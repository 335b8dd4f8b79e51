package io.snowid.spring.boot.app;

import org.springframework.data.jpa.repository.JpaRepository;

public interface Coupons extends JpaRepository<Coupon, String> {}
