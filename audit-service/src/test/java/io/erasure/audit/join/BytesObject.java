package io.erasure.audit.join;

/** A file held in memory, read by ranges as an export's file on S3 would be; counts what is fetched. */
final class BytesObject implements RangedObject {

    private final String name;
    private final byte[] bytes;
    private long fetchedBytes;
    private int reads;

    BytesObject(String name, byte[] bytes) {
        this.name = name;
        this.bytes = bytes;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long size() {
        return bytes.length;
    }

    @Override
    public void read(long offset, byte[] buffer, int at, int length) {
        System.arraycopy(bytes, (int) offset, buffer, at, length);
        fetchedBytes += length;
        reads++;
    }

    long fetchedBytes() {
        return fetchedBytes;
    }

    int reads() {
        return reads;
    }
}
