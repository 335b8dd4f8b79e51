package io.snowid.torture;

import java.io.IOException;

/**
 * The harness's entry point ({@code bench/torture.sh}): runs a torture run, or {@code --check DIR}
 * the checker alone. Exit code 0 when every count is 0, 1 on a violation or failure, 2 on bad
 * options. It owns the process's lifecycle: its shutdown hook removes what a run made.
 */
public final class Torture {
  private Torture() {}

  public static void main(String[] args) {
    for (String a : args) {
      if (a.equals("--help") || a.equals("-h")) {
        System.out.print(Options.help());
        System.exit(0);
      }
    }
    Options options;
    try {
      options = Options.parse(args);
    } catch (Options.Bad e) {
      System.err.println("torture: " + e.getMessage());
      System.exit(2);
      return;
    }
    System.exit(run(options));
  }

  /** Runs (or checks) and returns the exit code. */
  static int run(Options options) {
    try {
      if (options.check() != null) {
        Checker.Report report = Checker.check(options.check(), options.availability());
        System.out.print(report.text());
        return report.exitCode();
      }
      Run run = new Run(options);
      Thread hook = new Thread(run::close, "torture cleanup");
      Runtime.getRuntime().addShutdownHook(hook);
      try {
        return run.execute().exitCode();
      } finally {
        run.close();
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
          // shutting down already: the hook runs
        }
      }
    } catch (IOException e) {
      System.err.println("torture: " + e.getMessage());
      return 1;
    } catch (RuntimeException e) {
      System.err.println("torture: failed");
      e.printStackTrace();
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      System.err.println("torture: interrupted");
      return 1;
    }
  }
}
