package io.fieldnotes.csv;

import java.util.ArrayList;
import java.util.List;

/** Reads CSV text into records (lists of fields). Instances are immutable and thread-safe. */
public final class CsvParser {
    private final CsvFormat format;

    public CsvParser(CsvFormat format) {
        this.format = format;
    }

    /**
     * Parses a whole document. Records are separated by LF or CRLF; a trailing
     * line break does not start an empty record; blank lines are skipped.
     */
    public List<List<String>> parse(String text) {
        List<List<String>> records = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isEmpty()) {
                continue;
            }
            records.add(parseRecord(lines[i], i + 1));
        }
        return records;
    }

    /** Parses one record that contains no line break. */
    public List<String> parseRecord(String line, int lineNumber) {
        char delim = format.delimiter();
        char quote = format.quote();
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        boolean wasQuoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == quote) {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == quote) {
                if (field.length() > 0 && !wasQuoted) {
                    throw new CsvParseException(lineNumber, "quote inside an unquoted field at column " + (i + 1));
                }
                quoted = true;
                wasQuoted = true;
            } else if (c == delim) {
                fields.add(field.toString());
                field.setLength(0);
                wasQuoted = false;
            } else {
                if (wasQuoted) {
                    throw new CsvParseException(lineNumber, "text after a closing quote at column " + (i + 1));
                }
                field.append(c);
            }
        }
        if (quoted) {
            throw new CsvParseException(lineNumber, "unterminated quoted field");
        }
        fields.add(field.toString());
        return fields;
    }

    /** Parses a document whose first record is a header; each row maps header names to fields. */
    public List<java.util.Map<String, String>> parseWithHeader(String text) {
        List<List<String>> records = parse(text);
        List<java.util.Map<String, String>> rows = new ArrayList<>();
        if (records.isEmpty()) {
            return rows;
        }
        List<String> header = records.get(0);
        for (int r = 1; r < records.size(); r++) {
            List<String> rec = records.get(r);
            if (rec.size() != header.size()) {
                throw new CsvParseException(r + 1, "expected " + header.size() + " fields, found " + rec.size());
            }
            java.util.Map<String, String> row = new java.util.LinkedHashMap<>();
            for (int i = 0; i < header.size(); i++) {
                row.put(header.get(i), rec.get(i));
            }
            rows.add(row);
        }
        return rows;
    }
}
