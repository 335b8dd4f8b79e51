package io.snowid.jackson;

import io.snowid.InvalidIdException;
import io.snowid.codec.IdCodec;
import java.math.BigInteger;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.Version;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.JavaType;
import tools.jackson.databind.SerializationContext;
import tools.jackson.databind.cfg.MapperConfig;
import tools.jackson.databind.deser.std.StdDeserializer;
import tools.jackson.databind.introspect.Annotated;
import tools.jackson.databind.introspect.NopAnnotationIntrospector;
import tools.jackson.databind.ser.std.StdSerializer;

/** Jackson 3: finds ID properties and gives them the string serializer and the lenient reader. */
final class Jackson3Ids extends NopAnnotationIntrospector {
  private static final long serialVersionUID = 1L;

  @SuppressWarnings("serial") // introspectors are serialised only with a mapper, never here
  private final IdMembers members;

  Jackson3Ids(IdMembers members) {
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
  public Object findSerializer(MapperConfig<?> config, Annotated a) {
    IdCodec codec = IdMembers.isLong(a.getRawType()) ? codec(a) : null;
    return codec == null ? null : new Writer(codec);
  }

  @Override
  public Object findContentSerializer(MapperConfig<?> config, Annotated a) {
    IdCodec codec = longContent(a.getType()) ? codec(a) : null;
    return codec == null ? null : new Writer(codec);
  }

  @Override
  public Object findDeserializer(MapperConfig<?> config, Annotated a) {
    Class<?> raw = a.getRawType();
    IdCodec codec = IdMembers.isLong(raw) ? codec(a) : null;
    return codec == null ? null : new Reader(codec, raw == long.class);
  }

  @Override
  public Object findContentDeserializer(MapperConfig<?> config, Annotated a) {
    IdCodec codec = longContent(a.getType()) ? codec(a) : null;
    return codec == null ? null : new Reader(codec, false);
  }

  private static boolean longContent(JavaType type) {
    JavaType content = type == null ? null : type.getContentType();
    return content != null && content.getRawClass() == Long.class;
  }

  /** Writes an ID as a JSON string in its form. */
  static final class Writer extends StdSerializer<Long> {
    private final IdCodec codec;

    Writer(IdCodec codec) {
      super(Long.class);
      this.codec = codec;
    }

    @Override
    public void serialize(Long value, JsonGenerator gen, SerializationContext ctxt) {
      gen.writeString(codec.encode(value));
    }
  }

  /** Reads an ID from a string in its form or from a JSON integer. */
  static final class Reader extends StdDeserializer<Long> {
    private final IdCodec codec;
    private final boolean primitive;

    Reader(IdCodec codec, boolean primitive) {
      super(Long.class);
      this.codec = codec;
      this.primitive = primitive;
    }

    @Override
    public Long deserialize(JsonParser p, DeserializationContext ctxt) throws JacksonException {
      JsonToken t = p.currentToken();
      if (t == JsonToken.VALUE_STRING) {
        String text = p.getString();
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
    public Object getNullValue(DeserializationContext ctxt) {
      if (primitive) {
        return ctxt.reportInputMismatch(this, "null is not an ID (the property is a long)");
      }
      return null;
    }
  }
}
