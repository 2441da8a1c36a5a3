package io.fieldnotes.csv;

import java.util.Objects;

/** The dialect of a CSV document: field delimiter, quote character and record separator. */
public final class CsvFormat {
    /** Comma-separated, double-quoted, CRLF records (RFC 4180). */
    public static final CsvFormat RFC4180 = new CsvFormat(',', '"', "\r\n");
    /** Tab-separated values with Unix line ends. */
    public static final CsvFormat TSV = new CsvFormat('\t', '"', "\n");

    private final char delimiter;
    private final char quote;
    private final String recordSeparator;

    public CsvFormat(char delimiter, char quote, String recordSeparator) {
        if (delimiter == quote) {
            throw new IllegalArgumentException("delimiter and quote must differ");
        }
        if (delimiter == '\n' || delimiter == '\r' || quote == '\n' || quote == '\r') {
            throw new IllegalArgumentException("delimiter and quote cannot be line breaks");
        }
        this.delimiter = delimiter;
        this.quote = quote;
        this.recordSeparator = Objects.requireNonNull(recordSeparator, "recordSeparator");
    }

    public char delimiter() {
        return delimiter;
    }

    public char quote() {
        return quote;
    }

    public String recordSeparator() {
        return recordSeparator;
    }

    /** This format with another delimiter. */
    public CsvFormat withDelimiter(char newDelimiter) {
        return new CsvFormat(newDelimiter, quote, recordSeparator);
    }
}
