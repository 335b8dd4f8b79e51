package io.snowid.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/** Runs the command in-process and captures what it prints. */
record Cli(int exit, String out, String err) {

  static Cli run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = SnowIdCommand.execute(new PrintWriter(out, true), new PrintWriter(err, true), args);
    return new Cli(exit, out.toString(), err.toString());
  }

  List<String> outLines() {
    return out.lines().toList();
  }

  List<String> errLines() {
    return err.lines().toList();
  }
}
