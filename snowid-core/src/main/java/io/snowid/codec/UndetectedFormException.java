package io.snowid.codec;

import io.snowid.InvalidIdException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link IdCodec#detect} does not guess the form of a text as long as a fixed-width form: several
 * forms print that length (decimal too, when all digits), so the caller has to name one. {@link
 * #readers()} are the forms that read this very text; the message names them.
 */
public final class UndetectedFormException extends InvalidIdException {
  private static final long serialVersionUID = 1L;

  private final List<String> candidates;
  private final List<String> readers;

  UndetectedFormException(String input, List<String> candidates, List<String> readers) {
    super(input, reason(input.length(), candidates, readers, "name the form: "));
    this.candidates = List.copyOf(candidates);
    this.readers = List.copyOf(readers);
  }

  /** The forms that print texts of this length, e.g. {@code [hex, decimal]} for 16 characters. */
  public List<String> candidates() {
    return candidates;
  }

  /** The forms that read this text, e.g. {@code [hex]} for {@code 1565a11f6217a000}. */
  public List<String> readers() {
    return readers;
  }

  /**
   * The {@linkplain #reason() reason} with the way to name a form in the caller's interface: {@code
   * "--format "} gives {@code "…; pass --format hex"}, {@code "?format="} gives {@code "…; pass
   * ?format=hex"}.
   */
  public String reasonWith(String option) {
    List<String> passes = new ArrayList<>();
    for (String reader : readers) {
      passes.add(option + reader);
    }
    return reason(input().length(), candidates, passes, "pass ");
  }

  private static String reason(
      int length, List<String> candidates, List<String> readers, String advice) {
    return length
        + " characters can be "
        + or(candidates)
        + ", so the form is not guessed; "
        + advice
        + or(readers);
  }

  private static String or(List<String> words) {
    if (words.size() == 1) {
      return words.get(0);
    }
    return String.join(", ", words.subList(0, words.size() - 1))
        + " or "
        + words.get(words.size() - 1);
  }
}
