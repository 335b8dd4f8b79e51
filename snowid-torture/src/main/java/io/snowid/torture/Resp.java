package io.snowid.torture;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Reads the commands of a Redis append-only file (RESP arrays of bulk strings). */
final class Resp {
  private Resp() {}

  static List<List<String>> commands(byte[] b) {
    List<List<String>> out = new ArrayList<>();
    int[] pos = {0};
    while (pos[0] < b.length) {
      byte c = b[pos[0]];
      if (c == '#') { // an annotation line (timestamps)
        line(b, pos);
        continue;
      }
      if (c != '*') {
        throw new IllegalArgumentException("not an AOF command at byte " + pos[0]);
      }
      pos[0]++;
      int n = Integer.parseInt(line(b, pos));
      if (pos[0] >= b.length && n > 0) {
        break; // torn at the end
      }
      List<String> command = new ArrayList<>(n);
      boolean torn = false;
      for (int i = 0; i < n; i++) {
        if (pos[0] >= b.length || b[pos[0]] != '$') {
          torn = true;
          break;
        }
        pos[0]++;
        int len = Integer.parseInt(line(b, pos));
        if (pos[0] + len + 2 > b.length) {
          torn = true;
          break;
        }
        command.add(new String(b, pos[0], len, StandardCharsets.UTF_8));
        pos[0] += len + 2;
      }
      if (torn) {
        break;
      }
      out.add(command);
    }
    return out;
  }

  private static String line(byte[] b, int[] pos) {
    int start = pos[0];
    while (pos[0] < b.length && b[pos[0]] != '\r') {
      pos[0]++;
    }
    String s = new String(b, start, pos[0] - start, StandardCharsets.US_ASCII);
    pos[0] += 2;
    return s;
  }
}
