package io.snowid.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/** Left-aligned columns, two spaces apart, for people. */
final class Table {
  private final List<List<String>> rows = new ArrayList<>();

  Table(List<String> header) {
    rows.add(List.copyOf(header));
  }

  Table add(List<String> row) {
    rows.add(List.copyOf(row));
    return this;
  }

  void print(PrintWriter out) {
    int columns = 0;
    for (List<String> row : rows) {
      columns = Math.max(columns, row.size());
    }
    int[] widths = new int[columns];
    for (List<String> row : rows) {
      for (int i = 0; i < row.size(); i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    for (List<String> row : rows) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < row.size(); i++) {
        sb.append(row.get(i));
        if (i < row.size() - 1) {
          sb.append(" ".repeat(widths[i] - row.get(i).length() + 2));
        }
      }
      out.println(sb);
    }
  }
}
