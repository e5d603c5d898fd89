package io.erasure.backup.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CsvTest {

    static List<List<String>> read(String text) throws IOException {
        Csv.RecordReader reader = new Csv.RecordReader(new StringReader(text));
        List<List<String>> records = new ArrayList<>();
        for (List<String> r = reader.next(); r != null; r = reader.next()) {
            records.add(r);
        }
        return records;
    }

    @Test
    void quotedFieldsMaySpanLinesAndEmptyUnquotedIsNull() throws IOException {
        assertThat(read("a,\"b,1\",\"x\"\"y\"\r\n,\"\",\"l1\nl2\"\n"))
                .containsExactly(List.of("a", "b,1", "x\"y"), Arrays.asList(null, "", "l1\nl2"));
    }

    @Test
    void theLastRecordNeedsNoNewline() throws IOException {
        assertThat(read("1,2\n3,4")).containsExactly(List.of("1", "2"), List.of("3", "4"));
        assertThat(read("1,2\r\n3,4\r")).containsExactly(List.of("1", "2"), List.of("3", "4"));
    }

    @Test
    void anUnterminatedQuoteIsCorrupt() {
        assertThatThrownBy(() -> read("1,\"abc\n"))
                .isInstanceOf(BackupIntegrityException.class)
                .hasMessage("CSV record 1 ends inside a quoted field");
    }

    @Test
    void writingQuotesOnlyWhatNeedsIt() {
        StringBuilder out = new StringBuilder();
        for (String field : Arrays.asList("plain", "a,b", "q\"", "", null, "cr\r")) {
            Csv.appendField(out, field);
            out.append('|');
        }
        assertThat(out).hasToString("plain|\"a,b\"|\"q\"\"\"|\"\"||\"cr\r\"|");
    }
}
