package io.snowid.jackson;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.Version;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.NopAnnotationIntrospector;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.snowid.InvalidIdException;
import io.snowid.codec.IdCodec;
import java.io.IOException;
import java.math.BigInteger;

/** Jackson 2: as {@link Jackson3Ids}. */
final class Jackson2Ids extends NopAnnotationIntrospector {
  private static final long serialVersionUID = 1L;

  @SuppressWarnings("serial") // introspectors are serialised only with a mapper, never here
  private final IdMembers members;

  Jackson2Ids(IdMembers members) {
    this.members = members;
  }

  @Override
  public Version version() {
    return Version.unknownVersion();
  }

  private IdCodec codec(Annotated a) {
    return members.codec(a::getAnnotation);
  }

  @Override
  public Object findSerializer(Annotated a) {
    IdCodec codec = IdMembers.isLong(a.getRawType()) ? codec(a) : null;
    return codec == null ? null : new Writer(codec);
  }

  @Override
  public Object findContentSerializer(Annotated a) {
    IdCodec codec = longContent(a.getType()) ? codec(a) : null;
    return codec == null ? null : new Writer(codec);
  }

  @Override
  public Object findDeserializer(Annotated a) {
    Class<?> raw = a.getRawType();
    IdCodec codec = IdMembers.isLong(raw) ? codec(a) : null;
    return codec == null ? null : new Reader(codec, raw == long.class);
  }

  @Override
  public Object findContentDeserializer(Annotated a) {
    IdCodec codec = longContent(a.getType()) ? codec(a) : null;
    return codec == null ? null : new Reader(codec, false);
  }

  private static boolean longContent(JavaType type) {
    JavaType content = type == null ? null : type.getContentType();
    return content != null && content.getRawClass() == Long.class;
  }

  static final class Writer extends StdSerializer<Long> {
    private static final long serialVersionUID = 1L;

    @SuppressWarnings("serial") // every IdCodec is a stateless constant
    private final IdCodec codec;

    Writer(IdCodec codec) {
      super(Long.class);
      this.codec = codec;
    }

    @Override
    public void serialize(Long value, JsonGenerator gen, SerializerProvider provider)
        throws IOException {
      gen.writeString(codec.encode(value));
    }
  }

  static final class Reader extends StdDeserializer<Long> {
    private static final long serialVersionUID = 1L;

    @SuppressWarnings("serial") // every IdCodec is a stateless constant
    private final IdCodec codec;

    private final boolean primitive;

    Reader(IdCodec codec, boolean primitive) {
      super(Long.class);
      this.codec = codec;
      this.primitive = primitive;
    }

    @Override
    public Long deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      JsonToken t = p.currentToken();
      if (t == JsonToken.VALUE_STRING) {
        String text = p.getText();
        try {
          return codec.decode(text);
        } catch (InvalidIdException e) {
          throw ctxt.weirdStringException(text, Long.class, "not a " + codec.name() + " ID");
        }
      }
      if (t == JsonToken.VALUE_NUMBER_INT) {
        if (p.getNumberType() != JsonParser.NumberType.BIG_INTEGER) {
          long v = p.getLongValue();
          if (v < 0) { // as a string, "-1" is no ID either
            throw ctxt.weirdNumberException(v, Long.class, "not an ID: negative");
          }
          return v;
        }
        BigInteger big = p.getBigIntegerValue();
        if (!Unsigned.fits(big)) {
          throw ctxt.weirdNumberException(big, Long.class, "not an ID: above 2^64-1 or negative");
        }
        return big.longValue();
      }
      return (Long) ctxt.handleUnexpectedToken(Long.class, p);
    }

    @Override
    public Long getNullValue(DeserializationContext ctxt)
        throws com.fasterxml.jackson.databind.JsonMappingException {
      if (primitive) {
        return ctxt.reportInputMismatch(this, "null is not an ID (the property is a long)");
      }
      return null;
    }
  }
}
