package io.snowid.cli;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * Compiles a {@code java} block of the docs against the test class path and runs it in a JVM of its
 * own: statements as the body of a {@code main}, a block that declares a type as a source file (run
 * if it has a {@code main}).
 *
 * <p>Each block gets a package of its own, {@code java.io.tmpdir} in a fresh directory (so {@code
 * SnowId} and the command lease from a lease directory of the block's own, never the host's) and no
 * {@code SNOWID_*} environment variables. A JVM of its own, not a class loader: a block's
 * generators, lease threads and {@code SnowId}'s shutdown hook end with it, and one that does not
 * end is killed.
 */
final class DocJavaExamples {
  private static final Pattern IMPORT =
      Pattern.compile("^import\\s+(static\\s+)?[\\w.]+(\\.\\*)?\\s*;\\s*$");
  private static final Pattern TYPE =
      Pattern.compile(
          "^(?:@\\w+(?:\\([^)]*\\))?\\s+)*((?:public|final|abstract|sealed|non-sealed)\\s+)*"
              + "(?:class|interface|record|enum|@interface)\\s+(\\w+)");
  private static final Pattern FRAME = Pattern.compile("\\((\\w+)\\.java:(\\d+)\\)");

  private final Path work;
  private final Duration timeout;
  private final JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();

  /**
   * @param work where each block's sources, classes and temporary directories go
   * @param timeout how long a block may run
   */
  DocJavaExamples(Path work, Duration timeout) {
    this.work = work;
    this.timeout = timeout;
  }

  /**
   * Compiles and runs {@code b} (a block that uses several node sources is only compiled); returns
   * its failures, each starting with {@code FILE:LINE}.
   */
  List<String> run(DocBlock b) throws IOException, InterruptedException {
    List<String> failures = new ArrayList<>();
    String pkg =
        "doc." + (b.file() + "_l" + b.line()).toLowerCase(Locale.ROOT).replaceAll("\\W", "_");
    Path dir = Files.createDirectories(work.resolve(pkg));
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    String text = b.text(tmp);

    Set<String> sources = DocNodeSources.of(String.join("\n", b.lines()));
    if (sources.size() > 1) {
      failures.add(
          b.file()
              + ":"
              + b.line()
              + ": the example takes node values from "
              + sources.size()
              + " sources "
              + sources
              + ": generators on different sources can get the same node values and issue the"
              + " same IDs; an example uses one node source");
    }
    boolean runnable = failures.isEmpty();

    Source source = source(pkg, text.split("\n", -1), b.givens());
    if (source.unit() && !b.givens().isEmpty()) {
      failures.add(b.at(-1) + ": <!-- test: given … --> applies to statements, not to a class");
    }
    Path file = Files.createDirectories(dir.resolve("src")).resolve(source.fileName());
    Files.write(file, source.lines(), StandardCharsets.UTF_8);
    Path classes = Files.createDirectories(dir.resolve("classes"));
    List<String> errors = compile(file, classes, b, source);
    if (!errors.isEmpty()) {
      failures.addAll(errors);
      return failures;
    }
    Optional<String> main = source.unit() ? mainClass(classes, pkg) : Optional.of(pkg + ".Example");
    if (runnable && main.isPresent()) {
      runMain(main.get(), classes, dir, b, source).ifPresent(failures::add);
    }
    return failures;
  }

  /**
   * The generated source file.
   *
   * @param lines its lines
   * @param origins for each line, the block's line index it came from, or -1
   * @param unit whether the block is a source file of its own (declares a type)
   * @param fileName the file's name
   */
  private record Source(List<String> lines, List<Integer> origins, boolean unit, String fileName) {
    String at(DocBlock b, long generatedLine) {
      int index =
          generatedLine >= 1 && generatedLine <= origins.size()
              ? origins.get((int) generatedLine - 1)
              : -1;
      return b.at(index);
    }
  }

  private static Source source(String pkg, String[] block, List<String> givens) {
    List<String> lines = new ArrayList<>();
    List<Integer> origins = new ArrayList<>();
    lines.add("package " + pkg + ";");
    origins.add(-1);
    String publicType = null;
    boolean unit = false;
    for (String l : block) {
      Matcher m = TYPE.matcher(l);
      if (m.find()) {
        unit = true;
        if (publicType == null && m.group(1) != null && m.group(1).contains("public")) {
          publicType = m.group(2);
        }
      }
    }
    if (unit) {
      for (int i = 0; i < block.length; i++) {
        lines.add(block[i]);
        origins.add(i);
      }
      return new Source(
          lines, origins, true, (publicType == null ? "Example" : publicType) + ".java");
    }
    for (int i = 0; i < block.length; i++) {
      if (IMPORT.matcher(block[i]).matches()) {
        lines.add(block[i]);
        origins.add(i);
      }
    }
    lines.add("public final class Example {");
    lines.add("public static void main(String[] args) throws Exception {");
    origins.add(-1);
    origins.add(-1);
    for (String g : givens) {
      lines.add(g.endsWith(";") ? g : g + ";");
      origins.add(-1);
    }
    for (int i = 0; i < block.length; i++) {
      if (!IMPORT.matcher(block[i]).matches()) {
        lines.add(block[i]);
        origins.add(i);
      }
    }
    lines.add("}");
    lines.add("}");
    origins.add(-1);
    origins.add(-1);
    return new Source(lines, origins, false, "Example.java");
  }

  private List<String> compile(Path file, Path classes, DocBlock b, Source source)
      throws IOException {
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager files =
        compiler.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      List<String> options =
          List.of(
              "-classpath",
              System.getProperty("java.class.path"),
              "-d",
              classes.toString(),
              "-proc:none",
              "-nowarn",
              "-g");
      compiler
          .getTask(null, files, diagnostics, options, null, files.getJavaFileObjects(file))
          .call();
    }
    List<String> errors = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() == Diagnostic.Kind.ERROR) {
        errors.add(
            source.at(b, d.getLineNumber())
                + ": does not compile: "
                + d.getMessage(Locale.ROOT)
                    .lines()
                    .map(String::trim)
                    .filter(l -> !l.startsWith("location:"))
                    .collect(Collectors.joining("; ")));
      }
    }
    return errors;
  }

  /** The class of a source-file block that has {@code public static void main(String[])}. */
  private static Optional<String> mainClass(Path classes, String pkg) throws IOException {
    List<String> names;
    try (Stream<Path> files = Files.walk(classes)) {
      names =
          files
              .filter(f -> f.toString().endsWith(".class"))
              .map(f -> classes.relativize(f).toString())
              .map(n -> n.substring(0, n.length() - ".class".length()).replace('/', '.'))
              .sorted()
              .toList();
    }
    URL[] urls = {classes.toUri().toURL()};
    try (URLClassLoader loader = new URLClassLoader(urls, DocJavaExamples.class.getClassLoader())) {
      for (String name : names) {
        if (!name.startsWith(pkg + ".")) {
          continue;
        }
        try {
          Method main =
              Class.forName(name, false, loader).getDeclaredMethod("main", String[].class);
          if (Modifier.isStatic(main.getModifiers())) {
            return Optional.of(name);
          }
        } catch (NoSuchMethodException | ClassNotFoundException e) {
          // not this one
        }
      }
    }
    return Optional.empty();
  }

  /** Runs {@code main} in a JVM of its own; the failure, if any. */
  private Optional<String> runMain(String main, Path classes, Path dir, DocBlock b, Source source)
      throws IOException, InterruptedException {
    Path javaTmp = Files.createDirectories(dir.resolve("java.io.tmpdir"));
    Path out = dir.resolve("stdout.txt");
    Path err = dir.resolve("stderr.txt");
    ProcessBuilder pb =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + javaTmp,
                "-cp",
                classes + java.io.File.pathSeparator + System.getProperty("java.class.path"),
                main)
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("SNOWID_"));
    Process p = pb.start();
    if (!p.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
      String threads = DocProcesses.liveThreads(p, out);
      p.destroyForcibly().waitFor();
      return Optional.of(
          b.at(-1)
              + ": did not end within "
              + timeout.toSeconds()
              + " s (threads still running: "
              + threads
              + ")");
    }
    if (p.exitValue() == 0) {
      return Optional.empty();
    }
    String stderr = Files.readString(err);
    String at = b.at(-1);
    Matcher frame = FRAME.matcher(stderr);
    while (frame.find()) {
      if (source.fileName().equals(frame.group(1) + ".java")) {
        at = source.at(b, Long.parseLong(frame.group(2)));
        break;
      }
    }
    return Optional.of(at + ": exited " + p.exitValue() + ": " + DocProcesses.exception(stderr));
  }
}
