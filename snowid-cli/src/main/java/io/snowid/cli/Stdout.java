package io.snowid.cli;

import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;

/**
 * The command's standard output. A {@link PrintWriter} swallows write errors and keeps only a flag;
 * this one also keeps the first error, so that a command whose output cannot be written (a full
 * disk, {@code > /dev/full}, a closed stdout) stops and says why instead of exiting 0. It writes to
 * file descriptor 1 directly: {@code System.out} would swallow the error one level further down.
 */
final class Stdout extends PrintWriter {
  private final Recorder recorder;

  private Stdout(Recorder recorder, Charset charset) {
    super(new BufferedWriter(new OutputStreamWriter(recorder, charset)));
    this.recorder = recorder;
  }

  /** File descriptor 1, in the platform's charset. */
  static Stdout open() {
    return new Stdout(
        new Recorder(new FileOutputStream(FileDescriptor.out)), Charset.defaultCharset());
  }

  /** The first write error, or null. */
  IOException failure() {
    return recorder.failure;
  }

  /** Passes writes through and remembers the first that failed. */
  private static final class Recorder extends FilterOutputStream {
    private volatile IOException failure;

    Recorder(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      try {
        out.write(b, off, len);
      } catch (IOException e) {
        remember(e);
        throw e;
      }
    }

    @Override
    public void write(int b) throws IOException {
      try {
        out.write(b);
      } catch (IOException e) {
        remember(e);
        throw e;
      }
    }

    @Override
    public void flush() throws IOException {
      try {
        out.flush();
      } catch (IOException e) {
        remember(e);
        throw e;
      }
    }

    private void remember(IOException e) {
      if (failure == null) {
        failure = e;
      }
    }
  }
}
