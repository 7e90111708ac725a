package dev.a2atasks.bench;

import java.util.ArrayList;
import java.util.List;

/** A Markdown table, printed and kept for the results file. */
final class Table {

    private final String title;
    private final List<String> header;
    private final List<List<String>> rows = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();

    Table(String title, String... header) {
        this.title = title;
        this.header = List.of(header);
    }

    Table row(Object... cells) {
        List<String> row = new ArrayList<>();
        for (Object cell : cells) {
            row.add(cell instanceof Double d ? format(d) : String.valueOf(cell));
        }
        rows.add(row);
        return this;
    }

    Table note(String note) {
        notes.add(note);
        return this;
    }

    static String format(double value) {
        if (Double.isNaN(value)) {
            return "-";
        }
        return value >= 100 ? String.format("%.0f", value) : value >= 10 ? String.format("%.1f", value) : String.format("%.2f", value);
    }

    String render() {
        StringBuilder out = new StringBuilder("\n### ").append(title).append("\n\n");
        out.append("| ").append(String.join(" | ", header)).append(" |\n");
        out.append("|").append("---|".repeat(header.size())).append('\n');
        for (List<String> row : rows) {
            out.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        for (String note : notes) {
            out.append("\n").append(note).append('\n');
        }
        return out.toString();
    }
}
