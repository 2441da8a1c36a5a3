package io.fieldnotes.csv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class CsvWriterTest {
    private final CsvWriter writer = new CsvWriter(CsvFormat.RFC4180);

    @Test
    void leavesPlainFieldsAlone() {
        assertEquals("a,b\r\n", writer.write(List.of(List.of("a", "b"))));
    }

    @Test
    void quotesFieldsWithDelimitersAndDoublesQuotes() {
        assertEquals("\"x,y\",\"say \"\"hi\"\"\"", writer.escape("x,y") + "," + writer.escape("say \"hi\""));
    }

    @Test
    void nullIsEmpty() {
        assertEquals("", writer.escape(null));
    }
}
