package io.erasure.audit.join;

import io.erasure.backup.format.BackupIntegrityException;
import io.erasure.identifiers.IdentifierHash;
import io.erasure.identifiers.IdentifierKind;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.bytes.BytesUtils;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.ValuesType;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.column.values.ValuesReader;
import org.apache.parquet.column.values.rle.RunLengthBitPackingHybridDecoder;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.jspecify.annotations.Nullable;

/**
 * The identifier column of one row group, read a page at a time with parquet-java's page and level decoders instead
 * of value by value through a {@code ColumnReader}: a PLAIN page's text is hashed where it lies in the decompressed
 * page, with no object made per row, and a dictionary's entries are hashed once, not once per row that uses them.
 * Rows are read exactly as {@link ParquetColumn#identifier} reads them.
 *
 * <p>Only for what writers put in an identifier column by default (parquet-java, Spark, Amazon RDS exports): text
 * ({@code STRING} identifiers) or 32/64-bit integers ({@code NUMERIC}), PLAIN or dictionary-encoded, flat; see
 * {@link #reads}. Any other column is read by {@code ColumnReader}.
 */
final class IdentifierPages {

    private static final VarHandle INT_LE = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG_LE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final Set<Encoding> READ = EnumSet.of(
            Encoding.PLAIN, Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY, Encoding.RLE, Encoding.BIT_PACKED);

    private final String part;
    private final ParquetColumn column;
    private final PageReader pages;
    private final ColumnDescriptor descriptor;
    private final boolean text;
    private final boolean int32;
    private final int maxDefinitionLevel;
    private final long rows;
    private long rowsRead;

    private final @Nullable Dictionary dictionary;
    /** Each dictionary entry's identifier, as a row of it would give: hashed once. */
    private final long[] entryA;

    private final long[] entryB;
    private final boolean[] entryPresent;

    // the page being read
    private int pageRowsLeft;
    private @Nullable ValuesReader levelsV1;
    private @Nullable RunLengthBitPackingHybridDecoder levelsV2;
    private @Nullable ValuesReader entryIds;
    private byte[] values = new byte[0];
    private int position;
    private int end;

    // where the rows of the last read lie, for kept(i): a PLAIN page's bytes, or (page null) a dictionary entry
    private final byte[][] keptPage;
    private final int[] keptFrom;
    private final int[] keptLength;

    /**
     * Reads the column from {@code pages} (a row group's, one value or null per row); {@link #read} fills up to
     * {@code chunkRows} rows at a time.
     */
    IdentifierPages(String part, ParquetColumn column, PageReader pages, int chunkRows) {
        this.part = part;
        this.column = column;
        this.pages = pages;
        this.descriptor = column.descriptor();
        PrimitiveTypeName physical = column.type().getPrimitiveTypeName();
        this.text = physical == PrimitiveTypeName.BINARY;
        this.int32 = physical == PrimitiveTypeName.INT32;
        this.maxDefinitionLevel = descriptor.getMaxDefinitionLevel();
        this.rows = pages.getTotalValueCount();
        this.keptPage = new byte[chunkRows][];
        this.keptFrom = new int[chunkRows];
        this.keptLength = new int[chunkRows];
        DictionaryPage page = pages.readDictionaryPage();
        if (page == null) {
            this.dictionary = null;
            this.entryA = new long[0];
            this.entryB = new long[0];
            this.entryPresent = new boolean[0];
        } else {
            try {
                this.dictionary = page.getEncoding().initDictionary(descriptor, page);
            } catch (IOException e) {
                throw new BackupIntegrityException(
                        "the dictionary of column '" + column.name() + "' of part " + part + " cannot be read", e);
            }
            int entries = dictionary.getMaxId() + 1;
            this.entryA = new long[entries];
            this.entryB = new long[entries];
            this.entryPresent = new boolean[entries];
            for (int id = 0; id < entries; id++) {
                entryPresent[id] = text ? hashEntry(dictionary.decodeToBinary(id), id) : numberEntry(id);
            }
        }
    }

    /**
     * True if {@code column}'s chunk can be read this way for identifiers of {@code kind}: text or an integer as
     * {@link ParquetColumn#requireIdentifier} allows, with encodings PLAIN, dictionary and RLE/BIT_PACKED levels only.
     */
    static boolean reads(ParquetColumn column, ColumnChunkMetaData chunk, IdentifierKind kind) {
        ParquetColumn.Shape shape = column.shape();
        boolean ok = kind == IdentifierKind.STRING
                ? shape == ParquetColumn.Shape.TEXT
                : shape == ParquetColumn.Shape.INTEGER || shape == ParquetColumn.Shape.UNSIGNED;
        return ok && READ.containsAll(chunk.getEncodings());
    }

    /**
     * Reads the next {@code n} rows' identifiers as {@link ParquetColumn#identifier} does: {@code a[i]} (numeric) or
     * {@code a[i], b[i]} (hashed text), {@code present[i]} false for a row without one.
     */
    void read(long[] a, long[] b, boolean[] present, int n) {
        try {
            readRows(a, b, present, n);
        } catch (IOException e) {
            // the pages are in memory: what fails to decode is damage, not a failure worth a retry
            throw damaged("cannot be decoded (" + e.getMessage() + ")");
        }
    }

    private void readRows(long[] a, long[] b, boolean[] present, int n) throws IOException {
        if (rowsRead + n > rows) {
            throw new IllegalArgumentException("only " + (rows - rowsRead) + " rows are left, not " + n);
        }
        for (int i = 0; i < n; i++) {
            while (pageRowsLeft == 0) {
                nextPage();
            }
            pageRowsLeft--;
            int level = maxDefinitionLevel == 0 ? 0 : level();
            if (level < maxDefinitionLevel) {
                present[i] = false;
                continue;
            }
            ValuesReader ids = entryIds;
            if (ids != null) {
                int id = ids.readValueDictionaryId();
                if (id < 0 || id >= entryA.length) {
                    throw damaged("refers to dictionary entry " + id + " of " + entryA.length);
                }
                a[i] = entryA[id];
                b[i] = entryB[id];
                present[i] = entryPresent[id];
                keptPage[i] = null;
                keptFrom[i] = id;
            } else if (text) {
                need(4);
                int length = (int) INT_LE.get(values, position);
                if (length < 0 || length > end - position - 4) {
                    throw damaged("has a value of " + length + " bytes where " + (end - position - 4) + " are left");
                }
                int from = position + 4;
                IdentifierHash.hash(values, from, from + length, a, b, i);
                present[i] = true;
                keptPage[i] = values;
                keptFrom[i] = from;
                keptLength[i] = length;
                position = from + length;
            } else {
                long value;
                if (int32) {
                    need(4);
                    value = column.integer((int) INT_LE.get(values, position));
                    position += 4;
                } else {
                    need(8);
                    value = (long) LONG_LE.get(values, position);
                    position += 8;
                }
                a[i] = value;
                present[i] = column.isNumericIdentifier(value);
            }
        }
        rowsRead += n;
    }

    /** The {@link ParquetColumn#value} of text row {@code i} of the last {@link #read}, for a row that matched. */
    Object kept(int i) {
        byte[] page = keptPage[i];
        if (page == null) {
            return dictionaryText(keptFrom[i]);
        }
        return Binary.fromConstantByteArray(page, keptFrom[i], keptLength[i]);
    }

    private Binary dictionaryText(int id) {
        Dictionary entries = dictionary;
        if (entries == null) {
            throw new IllegalStateException("no dictionary");
        }
        return entries.decodeToBinary(id);
    }

    private boolean hashEntry(Binary entry, int id) {
        byte[] bytes = entry.getBytesUnsafe();
        IdentifierHash.hash(bytes, 0, bytes.length, entryA, entryB, id);
        return true;
    }

    private boolean numberEntry(int id) {
        Dictionary entries = Objects.requireNonNull(dictionary);
        long value = int32 ? column.integer(entries.decodeToInt(id)) : entries.decodeToLong(id);
        entryA[id] = value;
        return column.isNumericIdentifier(value);
    }

    private int level() throws IOException {
        ValuesReader v1 = levelsV1;
        if (v1 != null) {
            return v1.readInteger();
        }
        RunLengthBitPackingHybridDecoder v2 = levelsV2;
        if (v2 == null) {
            throw new IllegalStateException("no page");
        }
        return v2.readInt();
    }

    private void need(int bytes) {
        if (end - position < bytes) {
            throw damaged("ends " + (end - position) + " bytes into a value of " + bytes);
        }
    }

    private void nextPage() throws IOException {
        DataPage page = pages.readPage();
        if (page == null) {
            throw damaged("ends after " + rowsRead + " of its " + rows + " rows");
        }
        int count = page.getValueCount();
        if (count < 0) {
            throw damaged("has a page of " + count + " values");
        }
        if (count == 0) {
            pageRowsLeft = 0; // written by some writers (apache/parquet-java#2303); read past, as ColumnReader does
            return;
        }
        Encoding encoding;
        ByteBufferInputStream in;
        if (page instanceof DataPageV1 v1) {
            in = v1.getBytes().toInputStream();
            v1.getRlEncoding()
                    .getValuesReader(descriptor, ValuesType.REPETITION_LEVEL)
                    .initFromPage(count, in);
            ValuesReader levels = v1.getDlEncoding().getValuesReader(descriptor, ValuesType.DEFINITION_LEVEL);
            levels.initFromPage(count, in);
            levelsV1 = levels;
            levelsV2 = null;
            encoding = v1.getValueEncoding();
        } else if (page instanceof DataPageV2 v2) {
            levelsV1 = null;
            levelsV2 = new RunLengthBitPackingHybridDecoder(
                    BytesUtils.getWidthFromMaxInt(maxDefinitionLevel),
                    v2.getDefinitionLevels().toInputStream());
            in = v2.getData().toInputStream();
            encoding = v2.getDataEncoding();
        } else {
            throw damaged("has a page of an unknown kind: " + page);
        }
        if (encoding.usesDictionary()) {
            Dictionary entries = dictionary;
            if (entries == null) {
                throw damaged("has a " + encoding + " page but no dictionary");
            }
            ValuesReader ids = encoding.getDictionaryBasedValuesReader(descriptor, ValuesType.VALUES, entries);
            ids.initFromPage(count, in);
            entryIds = ids;
        } else if (encoding == Encoding.PLAIN) {
            entryIds = null;
            ByteBuffer bytes = in.slice(in.available());
            if (bytes.hasArray()) {
                values = bytes.array();
                position = bytes.arrayOffset() + bytes.position();
                end = position + bytes.remaining();
            } else {
                values = new byte[bytes.remaining()];
                bytes.get(values);
                position = 0;
                end = values.length;
            }
        } else {
            throw damaged("has a " + encoding + " page, an encoding its column chunk does not list");
        }
        pageRowsLeft = count;
    }

    private BackupIntegrityException damaged(String what) {
        return new BackupIntegrityException(
                "column '" + column.name() + "' of part " + part + " " + what + ": the file is damaged");
    }
}
