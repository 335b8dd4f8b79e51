package io.snowid.spring.boot;

import io.snowid.InvalidSettingException;
import io.snowid.codec.IdCodec;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.Errors;
import org.springframework.validation.Validator;

/**
 * The {@code snowid.mybatis-plus.*} properties (snowid-mybatis-plus). Checked when bound: a wrong
 * value or an unknown name fails the start, naming the property.
 */
@ConfigurationProperties(prefix = "snowid.mybatis-plus", ignoreUnknownFields = false)
public class SnowIdMybatisPlusProperties implements Validator {
  /**
   * The text form of IdType.ASSIGN_UUID keys: decimal, hex, base32, base32check, base36, base62,
   * base62-legacy or base64url (ASSIGN_ID keys are the ID itself).
   */
  private String uuidForm = "decimal";

  public String getUuidForm() {
    return uuidForm;
  }

  public void setUuidForm(String uuidForm) {
    this.uuidForm = uuidForm;
  }

  @Override
  public boolean supports(Class<?> type) {
    return SnowIdMybatisPlusProperties.class.isAssignableFrom(type);
  }

  @Override
  public void validate(Object target, Errors errors) {
    String form = ((SnowIdMybatisPlusProperties) target).getUuidForm();
    try {
      IdCodec.named(form);
    } catch (InvalidSettingException e) {
      errors.rejectValue(
          "uuidForm",
          "snowid.invalid",
          "snowid.mybatis-plus.uuid-form = " + form + " is invalid; allowed: " + e.allowed());
    }
  }
}
