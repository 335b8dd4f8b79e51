package io.snowid.spring.boot;

import com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator;
import io.snowid.IdGenerator;
import io.snowid.codec.IdCodec;
import io.snowid.mybatisplus.SnowIdIdentifierGenerator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * MyBatis-Plus keys (snowid-mybatis-plus): an {@link IdentifierGenerator} bean over the primary
 * {@link IdGenerator}, which MyBatis-Plus's auto-configuration puts in its {@code GlobalConfig}, so
 * {@code @TableId(type = IdType.ASSIGN_ID)} keys and {@code IdWorker.getId()} are snowid's IDs, and
 * {@code ASSIGN_UUID} keys the same IDs in {@code snowid.mybatis-plus.uuid-form}. Backs off when
 * the application defines an {@code IdentifierGenerator}, and when there is no {@code IdGenerator};
 * comes before MyBatis-Plus's own (Spring Cloud only), which then backs off. Several {@code
 * IdGenerator} beans and none primary fail the start (Spring asks for one) rather than leave the
 * keys to MyBatis-Plus's generator unnoticed (docs/design.md §8).
 */
@AutoConfiguration(
    after = SnowIdAutoConfiguration.class,
    beforeName = {
      "com.baomidou.mybatisplus.autoconfigure.IdentifierGeneratorAutoConfiguration",
      "com.baomidou.mybatisplus.autoconfigure.MybatisPlusAutoConfiguration"
    })
@ConditionalOnClass(
    name = {
      "io.snowid.mybatisplus.SnowIdIdentifierGenerator",
      "com.baomidou.mybatisplus.core.incrementer.IdentifierGenerator"
    })
@ConditionalOnBean(IdGenerator.class)
@EnableConfigurationProperties(SnowIdMybatisPlusProperties.class)
public class SnowIdMybatisPlusAutoConfiguration {
  @Bean
  @ConditionalOnMissingBean(IdentifierGenerator.class)
  SnowIdIdentifierGenerator snowIdIdentifierGenerator(
      IdGenerator ids, SnowIdMybatisPlusProperties properties) {
    return new SnowIdIdentifierGenerator(ids, IdCodec.named(properties.getUuidForm()));
  }
}
