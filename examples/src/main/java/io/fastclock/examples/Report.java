package io.fastclock.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Formatting for the demo's output: numbers and plain-text tables. */
final class Report {

    private Report() {}

    /** Nanoseconds with one decimal, e.g. "36.4"; "-" for no figure (NaN). */
    static String nanos(double ns) {
        return Double.isNaN(ns) ? "-" : String.format(Locale.ROOT, "%.1f", ns);
    }

    /** A rate with a unit prefix, e.g. "27.5 M/s", "812 k/s", "950 /s". */
    static String rate(double perSecond) {
        if (perSecond >= 1e9) {
            return String.format(Locale.ROOT, "%.2f G/s", perSecond / 1e9);
        }
        if (perSecond >= 1e6) {
            return String.format(Locale.ROOT, "%.1f M/s", perSecond / 1e6);
        }
        if (perSecond >= 1e3) {
            return String.format(Locale.ROOT, "%.0f k/s", perSecond / 1e3);
        }
        return String.format(Locale.ROOT, "%.0f /s", perSecond);
    }

    /** A section title underlined with '='. */
    static String title(String text) {
        return text + System.lineSeparator() + "=".repeat(text.length());
    }

    /** A table with a header row; numbers right-aligned, text (first column, {@link #left}) left. */
    static final class Table {
        private final List<String[]> rows = new ArrayList<>();
        private final int columns;
        private final boolean[] leftAligned;

        Table(String... header) {
            this.columns = header.length;
            this.leftAligned = new boolean[columns];
            this.leftAligned[0] = true;
            rows.add(header);
        }

        /** Left-aligns the given columns. */
        Table left(int... cols) {
            for (int c : cols) {
                leftAligned[c] = true;
            }
            return this;
        }

        Table row(String... cells) {
            if (cells.length != columns) {
                throw new IllegalArgumentException("expected " + columns + " cells, got " + cells.length);
            }
            rows.add(cells);
            return this;
        }

        @Override
        public String toString() {
            int[] width = new int[columns];
            for (String[] row : rows) {
                for (int c = 0; c < columns; c++) {
                    width[c] = Math.max(width[c], row[c].length());
                }
            }
            StringBuilder out = new StringBuilder();
            for (int r = 0; r < rows.size(); r++) {
                String[] row = rows.get(r);
                StringBuilder line = new StringBuilder();
                for (int c = 0; c < columns; c++) {
                    if (c > 0) {
                        line.append(" | ");
                    }
                    String pad = " ".repeat(width[c] - row[c].length());
                    line.append(leftAligned[c] ? row[c] + pad : pad + row[c]);
                }
                out.append(line.toString().stripTrailing()).append(System.lineSeparator());
                if (r == 0) {
                    StringBuilder rule = new StringBuilder();
                    for (int c = 0; c < columns; c++) {
                        if (c > 0) {
                            rule.append("-+-");
                        }
                        rule.append("-".repeat(width[c]));
                    }
                    out.append(rule).append(System.lineSeparator());
                }
            }
            return out.toString();
        }
    }
}
