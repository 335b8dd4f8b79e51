package io.snowid.torture;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A record of what the harness made that must not outlive it: the {@code pids} file (every process
 * it starts, one pid a line) and the {@code network} file ({@code netns NAME}, {@code link NAME}),
 * so bench/torture.sh can remove exactly those if the harness itself is killed.
 */
final class Pids {
  private final Path file;

  Pids(Path file) {
    this.file = file;
  }

  synchronized void add(Object entry) {
    try {
      Files.writeString(
          file,
          entry + "\n",
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
