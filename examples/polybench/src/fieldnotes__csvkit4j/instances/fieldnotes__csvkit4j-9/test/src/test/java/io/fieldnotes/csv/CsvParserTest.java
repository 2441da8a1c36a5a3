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
    void rejectsUnterminatedQuote() {
        CsvParseException e = assertThrows(CsvParseException.class, () -> parser.parse("a,b\n\"open,c\n"));
        assertEquals(2, e.line());
    }

    @Test
    void rejectsTextAfterClosingQuote() {
        assertThrows(CsvParseException.class, () -> parser.parse("\"a\"b,c"));
    }

    @Test
    void quotedFieldMaySpanLines() {
        String text = "id,note\n1,\"first line\nsecond line\"\n2,short\n";
        assertEquals(
                List.of(List.of("id", "note"), List.of("1", "first line\nsecond line"), List.of("2", "short")),
                parser.parse(text));
    }

    @Test
    void keepsCrlfInsideQuotedField() {
        assertEquals(List.of(List.of("a\r\nb", "c")), parser.parse("\"a\r\nb\",c\r\n"));
    }

    @Test
    void reportsLineOfUnterminatedMultilineField() {
        CsvParseException e = assertThrows(CsvParseException.class, () -> parser.parse("a\n\"x\",\"two\nlines\"\n\"open\n"));
        assertEquals(4, e.line());
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
