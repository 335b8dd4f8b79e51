package io.snowid.spring.boot.mybatis;

import com.baomidou.mybatisplus.core.mapper.BaseMapper;
import org.apache.ibatis.annotations.Mapper;

@Mapper
public interface Tickets extends BaseMapper<Ticket> {}
