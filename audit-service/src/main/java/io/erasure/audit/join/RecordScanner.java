package io.erasure.audit.join;

/**
 * Finds a few named top-level fields of each record in a decompressed buffer without parsing the
 * rest, the hot loop of the audit. One scanner per thread; results of {@link #scan} are valid until
 * the next call.
 *
 * <p>Lifecycle: {@code readHeader} once at the start of a part, then {@code scan} per record.
 */
interface RecordScanner {

    /** The field is not in the record. */
    byte ABSENT = 0;
    /** JSON {@code null}, or an empty unquoted CSV field. */
    byte NULL = 1;
    /** A JSON number: {@code [start, end)} is the token. */
    byte NUMBER = 2;
    /** A string without escapes, or any non-empty CSV field without {@code ""}: {@code [start, end)} is its content. */
    byte STRING = 3;
    /** A string with escapes ({@code \"}, {@code \u00e9}, CSV {@code ""}): {@code [start, end)} is the raw content. */
    byte ESCAPED_STRING = 4;
    /** An object, array or boolean. */
    byte OTHER = 5;

    /**
     * Reads the header record if the format has one (CSV), resolving the field names.
     *
     * @return the offset after the header, or -1 if it is not complete in {@code [from, limit)}
     */
    int readHeader(byte[] b, int from, int limit);

    /**
     * Scans the record starting at {@code from}.
     *
     * @return the offset just after the record (past its newline), or -1 if the record does not end
     *         before {@code limit} (read more input and call again from the same offset)
     * @throws MalformedRecordException if the record is not valid in this format
     */
    int scan(byte[] b, int from, int limit);

    /** True if the last scanned record was an empty line (not a row). */
    boolean blank();

    byte kind(int field);

    /** The decoded text of a found field (escapes resolved), for the rare rows that match. */
    String text(byte[] b, int field);

    int start(int field);

    int end(int field);
}
