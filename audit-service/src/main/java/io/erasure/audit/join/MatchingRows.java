package io.erasure.audit.join;

import io.erasure.backup.format.BackupIntegrityException;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.PrimitiveIterator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.jspecify.annotations.Nullable;

/**
 * A row group's pages of flat columns, presented so that parquet-java's {@code ColumnReadStoreImpl} gives readers that
 * move from one matching row to the next ({@code SynchronizingColumnReader}), skipping the rows between in bulk
 * instead of one by one.
 *
 * <p>Such a reader needs each page's first row. parquet-java takes it from the file's offset index when it filters
 * pages, and trusts it: a wrong index would pair a matching row with another row's key, silently. Here it is counted
 * from the pages themselves (a flat column holds one value, or null, per row), and every page is read, so the offset
 * index is never relied on.
 *
 * <p>The row indexes end with one past the row group's last row: parquet-java 1.18.2 can leave a column on an earlier
 * row when it takes the last row asked for while still in an earlier page, and so give that row another row's value
 * (apache/parquet-java#3747, mended upstream by #3748). A reader must not be moved on from the last matching row, or it
 * would look for that row in pages that are not there.
 */
final class MatchingRows implements PageReadStore {

    private final PageReadStore pages;
    private final String part;
    private final long[] rows;
    private final int count;

    /**
     * @param rows the matching rows {@code rows[0..count)}, ascending, within the row group
     */
    MatchingRows(PageReadStore pages, String part, long[] rows, int count) {
        long rowCount = pages.getRowCount();
        for (int i = 0; i < count; i++) {
            if (rows[i] < 0 || rows[i] >= rowCount || (i > 0 && rows[i] <= rows[i - 1])) {
                throw new IllegalArgumentException("rows must ascend within the row group's " + rowCount);
            }
        }
        this.pages = pages;
        this.part = part;
        this.rows = rows;
        this.count = count;
    }

    @Override
    public PageReader getPageReader(ColumnDescriptor column) {
        PageReader reader = pages.getPageReader(column);
        return new PageReader() {
            private long firstRow;

            @Override
            public @Nullable DictionaryPage readDictionaryPage() {
                return reader.readDictionaryPage();
            }

            @Override
            public long getTotalValueCount() {
                return reader.getTotalValueCount();
            }

            @Override
            public @Nullable DataPage readPage() {
                DataPage page = reader.readPage();
                if (page == null) {
                    return null;
                }
                long first = firstRow;
                firstRow += page.getValueCount();
                return startingAt(page, first, column);
            }
        };
    }

    private DataPage startingAt(DataPage page, long first, ColumnDescriptor column) {
        int values = page.getValueCount();
        if (page instanceof DataPageV1 v1) {
            return new DataPageV1(
                    v1.getBytes(),
                    values,
                    v1.getUncompressedSize(),
                    first,
                    values,
                    v1.getStatistics(),
                    v1.getRlEncoding(),
                    v1.getDlEncoding(),
                    v1.getValueEncoding());
        }
        if (page instanceof DataPageV2 v2 && !v2.isCompressed() && v2.getRowCount() == values) {
            return DataPageV2.uncompressed(
                    v2.getRowCount(),
                    v2.getNullCount(),
                    values,
                    first,
                    v2.getRepetitionLevels(),
                    v2.getDefinitionLevels(),
                    v2.getDataEncoding(),
                    v2.getData(),
                    v2.getStatistics());
        }
        throw new BackupIntegrityException("column '" + String.join(".", column.getPath()) + "' of part " + part
                + " has a page that is not one value per row (" + page + "): a flat column's page always is");
    }

    @Override
    public long getRowCount() {
        return pages.getRowCount();
    }

    @Override
    public Optional<Long> getRowIndexOffset() {
        return pages.getRowIndexOffset();
    }

    @Override
    public Optional<PrimitiveIterator.OfLong> getRowIndexes() {
        long past = pages.getRowCount();
        return Optional.of(new PrimitiveIterator.OfLong() {
            private int next;

            @Override
            public boolean hasNext() {
                return next <= count;
            }

            @Override
            public long nextLong() {
                if (next > count) {
                    throw new NoSuchElementException();
                }
                long row = next < count ? rows[next] : past;
                next++;
                return row;
            }
        });
    }
}
