package io.fieldnotes.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CsvParserTest {
    private final CsvParser parser = new CsvParser(CsvFormat.RFC4180);

    @Test
    void parsesPlainRecords() {
        assertEquals(List.of(List.of("a", "b", "c"), List.of("1", "2", "3")), parser.parse("a,b,c\r\n1,2,3\r\n"));
    }

    @Test
    void keepsEmptyFields() {
        assertEquals(List.of(List.of("", "x", "")), parser.parse(",x,\n"));
    }

    @Test
    void quotedFieldMayHoldDelimiter() {
        assertEquals(List.of(List.of("Doe, Jane", "42")), parser.parse("\"Doe, Jane\",42"));
    }

    @Test
    void unescapesDoubledQuotes() {
        assertEquals(List.of(List.of("say \"hi\"", "x")), parser.parse("\"say \"\"hi\"\"\",x"));
    }

    @Test
    void fieldOfOneQuote() {
        assertEquals(List.of(List.of("\"")), parser.parse("\"\"\"\""));
    }

    @Test
    void keepsEmptyQuotedFields() {
        assertEquals(List.of(List.of("a", "", "b")), parser.parse("a,\"\",b"));
    }

    @Test
    void readsWhatTheWriterWrites() {
        List<String> record = List.of("plain", "with,comma", "with \"quotes\"", "");
        String text = new CsvWriter(CsvFormat.RFC4180).write(List.of(record));
        assertEquals(List.of(record), parser.parse(text));
    }

    @Test
    void rejectsUnterminatedQuote() {
        CsvParseException e = assertThrows(CsvParseException.class, () -> parser.parse("a,b\n\"open,c\n"));
        assertEquals(2, e.line());
    }

    @Test
    void rejectsTextAfterClosingQuote() {
        assertThrows(CsvParseException.class, () -> parser.parse("\"a\"b,c"));
    }

    @Test
    void tabSeparated() {
        assertEquals(List.of(List.of("a,b", "c")), new CsvParser(CsvFormat.TSV).parse("a,b\tc\n"));
    }

    @Test
    void headerRows() {
        List<Map<String, String>> rows = parser.parseWithHeader("name,age\nAda,36\nAlan,41\n");
        assertEquals("41", rows.get(1).get("age"));
        assertEquals(2, rows.size());
    }
}
