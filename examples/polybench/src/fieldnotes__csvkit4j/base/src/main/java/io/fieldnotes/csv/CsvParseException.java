package io.fieldnotes.csv;

/** Thrown for malformed CSV input; carries the 1-based line of the defect. */
public class CsvParseException extends RuntimeException {
    private final int line;

    public CsvParseException(int line, String message) {
        super("line " + line + ": " + message);
        this.line = line;
    }

    public int line() {
        return line;
    }
}
