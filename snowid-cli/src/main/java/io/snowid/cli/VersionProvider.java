package io.snowid.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** {@code snowid 0.1.0} and the Java runtime. */
final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {
      "snowid " + version(),
      "Java " + Runtime.version() + " (" + System.getProperty("java.vm.name") + ")"
    };
  }

  static String version() {
    try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        Properties p = new Properties();
        p.load(in);
        return p.getProperty("version", "unknown");
      }
    } catch (IOException e) {
      // fall through
    }
    return "unknown";
  }
}
