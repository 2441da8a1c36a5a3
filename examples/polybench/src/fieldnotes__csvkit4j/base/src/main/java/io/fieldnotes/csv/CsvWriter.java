package io.fieldnotes.csv;

import java.util.List;

/** Writes records as CSV, quoting a field only when it needs it. */
public final class CsvWriter {
    private final CsvFormat format;

    public CsvWriter(CsvFormat format) {
        this.format = format;
    }

    /** The document for records, each record ended by the format's record separator. */
    public String write(List<List<String>> records) {
        StringBuilder out = new StringBuilder();
        for (List<String> record : records) {
            writeRecord(out, record);
            out.append(format.recordSeparator());
        }
        return out.toString();
    }

    void writeRecord(StringBuilder out, List<String> record) {
        for (int i = 0; i < record.size(); i++) {
            if (i > 0) {
                out.append(format.delimiter());
            }
            out.append(escape(record.get(i)));
        }
    }

    /** The field as written: quoted, with quotes doubled, when it holds a delimiter, quote or line break. */
    public String escape(String field) {
        if (field == null) {
            return "";
        }
        char q = format.quote();
        boolean needsQuotes = field.indexOf(format.delimiter()) >= 0
                || field.indexOf(q) >= 0
                || field.indexOf('\n') >= 0
                || field.indexOf('\r') >= 0;
        if (!needsQuotes) {
            return field;
        }
        String doubled = field.replace(String.valueOf(q), String.valueOf(q) + q);
        return q + doubled + q;
    }
}
