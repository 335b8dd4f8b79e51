package io.snowid.spring.boot3;

import org.springframework.data.jpa.repository.JpaRepository;

public interface Items extends JpaRepository<Boot3App.Item, Long> {}
