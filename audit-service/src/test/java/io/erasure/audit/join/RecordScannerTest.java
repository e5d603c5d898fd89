package io.erasure.audit.join;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordScannerTest {

    private static String field(RecordScanner scanner, byte[] b, int field) {
        return scanner.kind(field) + ":" + (scanner.kind(field) == RecordScanner.ABSENT ? "" : scanner.text(b, field));
    }

    private static String scanJson(String line, String... fields) {
        JsonRecordScanner scanner = new JsonRecordScanner(List.of(fields));
        byte[] b = (line + "\n").getBytes(StandardCharsets.UTF_8);
        assertThat(scanner.scan(b, 0, b.length)).isEqualTo(b.length);
        StringBuilder out = new StringBuilder();
        for (int f = 0; f < fields.length; f++) {
            out.append(f == 0 ? "" : " ").append(field(scanner, b, f));
        }
        return out.toString();
    }

    @Test
    void jsonFindsOnlyTopLevelFieldsAndSkipsValuesThatLookLikeThem() {
        assertThat(scanJson("{\"note\":\"\\\"id\\\":7\",\"nested\":{\"id\":8,\"x\":[{\"id\":9}]},\"id\":42}", "id"))
                .isEqualTo(RecordScanner.NUMBER + ":42");
        assertThat(scanJson(" { \"a\" : 1 , \"id\" : \"c-1\" , \"b\" : 2 } ", "id"))
                .isEqualTo(RecordScanner.STRING + ":c-1");
        assertThat(scanJson("{\"id\":\"caf\\u00e9 \\\"x\\\"\"}", "id"))
                .isEqualTo(RecordScanner.ESCAPED_STRING + ":café \"x\"");
        assertThat(scanJson("{\"id\":null,\"b\":true}", "id", "b"))
                .isEqualTo(RecordScanner.NULL + ":null " + RecordScanner.OTHER + ":true");
        assertThat(scanJson("{\"a\":1}", "id")).isEqualTo(RecordScanner.ABSENT + ":");
        assertThat(scanJson("{}", "id")).isEqualTo(RecordScanner.ABSENT + ":");
        assertThat(scanJson("{\"since\":\"2024-01-01T00:00:00Z\",\"id\":-5}", "id", "since"))
                .isEqualTo(RecordScanner.NUMBER + ":-5 " + RecordScanner.STRING + ":2024-01-01T00:00:00Z");
        // a repeated key: the first wins, as the full parse of a matching row would not see otherwise
        assertThat(scanJson("{\"id\":1,\"id\":2}", "id")).isEqualTo(RecordScanner.NUMBER + ":1");
    }

    @Test
    void jsonStopsParsingAfterTheLastWantedFieldButStillFindsTheLineEnd() {
        JsonRecordScanner scanner = new JsonRecordScanner(List.of("id"));
        // the tail is not valid JSON: it is never parsed, only skipped up to the newline
        byte[] b = "{\"id\":1, garbage ]]\n{\"id\":2}\n".getBytes(StandardCharsets.UTF_8);
        int next = scanner.scan(b, 0, b.length);
        assertThat(field(scanner, b, 0)).isEqualTo(RecordScanner.NUMBER + ":1");
        assertThat(scanner.scan(b, next, b.length)).isEqualTo(b.length);
        assertThat(field(scanner, b, 0)).isEqualTo(RecordScanner.NUMBER + ":2");
    }

    @Test
    void jsonReportsIncompleteAndBlankLinesAndRejectsNonObjects() {
        JsonRecordScanner scanner = new JsonRecordScanner(List.of("id"));
        byte[] b = "{\"id\":1}\n   \n{\"id\":".getBytes(StandardCharsets.UTF_8);
        int next = scanner.scan(b, 0, b.length);
        next = scanner.scan(b, next, b.length);
        assertThat(scanner.blank()).isTrue();
        assertThat(scanner.scan(b, next, b.length)).isEqualTo(-1);

        byte[] array = "[1,2]\n".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> scanner.scan(array, 0, array.length))
                .isInstanceOf(MalformedRecordException.class)
                .hasMessage("line is not a JSON object");
        byte[] open = "{\"a\":\"x\n".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> scanner.scan(open, 0, open.length)).hasMessage("line ends inside a string");
    }

    @Test
    void csvFindsFieldsByHeaderAndKeepsQuotedNewlinesInsideTheRecord() {
        CsvRecordScanner scanner = new CsvRecordScanner(List.of("id", "since"));
        byte[] b = ("note,id,since\r\n\"a,\"\"b\"\"\nc\",\"x\"\"y\",\n,7,2024-01-01 00:00:00+00\n\"open")
                .getBytes(StandardCharsets.UTF_8);
        int next = scanner.readHeader(b, 0, b.length);
        assertThat(scanner.header()).containsExactly("note", "id", "since");
        next = scanner.scan(b, next, b.length);
        assertThat(field(scanner, b, 0) + " " + field(scanner, b, 1))
                .isEqualTo(RecordScanner.ESCAPED_STRING + ":x\"y " + RecordScanner.NULL + ":");
        next = scanner.scan(b, next, b.length);
        assertThat(field(scanner, b, 0) + " " + field(scanner, b, 1))
                .isEqualTo(RecordScanner.STRING + ":7 " + RecordScanner.STRING + ":2024-01-01 00:00:00+00");
        assertThat(scanner.scan(b, next, b.length)).isEqualTo(-1);
    }

    @Test
    void csvRejectsRecordsWithAnotherFieldCount() {
        CsvRecordScanner scanner = new CsvRecordScanner(List.of("id"));
        byte[] b = "a,id\n1,2,3\n".getBytes(StandardCharsets.UTF_8);
        int next = scanner.readHeader(b, 0, b.length);
        assertThatThrownBy(() -> scanner.scan(b, next, b.length))
                .isInstanceOf(MalformedRecordException.class)
                .hasMessage("record has 3 fields but the header has 2");
    }

    @Test
    void timestampsAreReadInEveryIsoFormOwnersWrite() {
        long micros = 1_706_666_400_123_456L;
        for (String text : List.of(
                "2024-01-31T02:00:00.123456Z",
                "2024-01-31 02:00:00.123456+00",
                "2024-01-31T02:00:00.123456+00:00",
                "2024-01-31T02:00:00.123456",
                "2024-01-31T03:00:00.123456+01:00",
                "2024-01-31T02:00:00.123456789Z")) {
            byte[] b = text.getBytes(StandardCharsets.UTF_8);
            assertThat(Timestamps.parseMicros(b, 0, b.length)).as(text).isEqualTo(micros);
            assertThat(Timestamps.parseMicros(text)).as(text).isEqualTo(micros);
        }
        byte[] b = "1969-12-31T23:59:59Z".getBytes(StandardCharsets.UTF_8);
        assertThat(Timestamps.parseMicros(b, 0, b.length)).isEqualTo(-1_000_000L);
        assertThatThrownBy(() -> Timestamps.parseMicros("yesterday"))
                .hasMessage("'yesterday' is not an ISO-8601 timestamp such as 2024-01-31T02:00:00Z");
    }

    @Test
    void integersAreParsedStrictly() {
        for (String ok : List.of("0", "-12", "9223372036854775807")) {
            byte[] b = ok.getBytes(StandardCharsets.UTF_8);
            assertThat(Bytes.parseLong(b, 0, b.length)).isEqualTo(Long.parseLong(ok));
        }
        for (String bad : List.of("", "-", "1.0", "1e3", "9223372036854775808", "12a", "00000000000000000001")) {
            byte[] b = bad.getBytes(StandardCharsets.UTF_8);
            assertThat(Bytes.parseLong(b, 0, b.length)).as(bad).isEqualTo(Bytes.NOT_A_LONG);
        }
    }

    @Test
    void newlineSearchFindsTheFirstInEveryPosition() {
        for (int at = 0; at < 20; at++) {
            byte[] b = new byte[20];
            Arrays.fill(b, (byte) 'x');
            b[at] = '\n';
            if (at + 3 < 20) {
                b[at + 3] = '\n';
            }
            assertThat(Bytes.indexOfNewline(b, 0, 20)).isEqualTo(at);
        }
        assertThat(Bytes.indexOfNewline(new byte[16], 0, 16)).isEqualTo(-1);
    }
}
