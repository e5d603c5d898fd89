package io.erasure.identifiers;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * An {@link IdentifierSet} as a file, for handing it to another process (the SSTable reader's child JVM): a header
 * ({@code ERASUREIDS}, a version, the kind, the count), the identifiers as big-endian longs (one per numeric
 * identifier, two per hashed one), and a CRC32C of all that. Reading checks all of it, so a truncated or damaged file
 * is refused rather than read as a smaller set, which would hide candidates.
 */
public final class IdentifierSetFile {

    private static final byte[] MAGIC = {'E', 'R', 'A', 'S', 'U', 'R', 'E', 'I', 'D', 'S'};
    private static final int VERSION = 1;

    private IdentifierSetFile() {}

    /** Writes {@code set} to {@code file}, replacing it. */
    public static void write(IdentifierSet set, Path file) throws IOException {
        CRC32C crc = new CRC32C();
        try (OutputStream raw = Files.newOutputStream(file);
                CheckedOutputStream checked = new CheckedOutputStream(new BufferedOutputStream(raw, 1 << 16), crc);
                DataOutputStream out = new DataOutputStream(checked)) {
            out.write(MAGIC);
            out.writeInt(VERSION);
            out.writeByte(set.kind().ordinal());
            out.writeInt(set.size());
            boolean numeric = set.kind() == IdentifierKind.NUMERIC;
            try {
                set.forEach((a, b) -> {
                    try {
                        out.writeLong(a);
                        if (!numeric) {
                            out.writeLong(b);
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            out.flush();
            raw.write(ByteBuffer.allocate(Long.BYTES).putLong(crc.getValue()).array());
        }
    }

    /**
     * Reads a set {@link #write} wrote.
     *
     * @throws IOException naming {@code file} if it is not such a file, is truncated or fails its checksum
     */
    public static IdentifierSet read(Path file) throws IOException {
        CRC32C crc = new CRC32C();
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            DataInputStream in = new DataInputStream(new CheckedInputStream(raw, crc));
            byte[] magic = new byte[MAGIC.length];
            in.readFully(magic);
            if (!Arrays.equals(magic, MAGIC)) {
                throw new IOException(file + " is not an identifier set file (no "
                        + new String(MAGIC, StandardCharsets.US_ASCII) + " header)");
            }
            int version = in.readInt();
            if (version != VERSION) {
                throw new IOException(
                        file + " is an identifier set file of version " + version + ", this reads " + VERSION);
            }
            int kindOrdinal = in.readByte();
            IdentifierKind[] kinds = IdentifierKind.values();
            if (kindOrdinal < 0 || kindOrdinal >= kinds.length) {
                throw new IOException(file + " names no known identifier kind (" + kindOrdinal + ")");
            }
            int size = in.readInt();
            if (size < 0) {
                throw new IOException(file + " claims " + size + " identifiers");
            }
            IdentifierSet set =
                    kinds[kindOrdinal] == IdentifierKind.NUMERIC ? readNumeric(in, size) : readHashed(in, size);
            long expected = crc.getValue();
            long stored = new DataInputStream(raw).readLong();
            if (stored != expected) {
                throw new IOException(file + " fails its checksum: it was damaged after it was written");
            }
            if (raw.read() != -1) {
                throw new IOException(file + " has bytes after its checksum: it is not one identifier set");
            }
            return set;
        } catch (EOFException e) {
            throw new IOException(file + " is truncated: it ends before the identifiers its header announces", e);
        }
    }

    private static IdentifierSet readNumeric(DataInputStream in, int size) throws IOException {
        LongIdentifierSet set = new LongIdentifierSet(size, LongIdentifierSet.DEFAULT_LOAD_FACTOR);
        for (int i = 0; i < size; i++) {
            set.add(in.readLong());
        }
        return set;
    }

    private static IdentifierSet readHashed(DataInputStream in, int size) throws IOException {
        HashedIdentifierSet set = new HashedIdentifierSet(size, HashedIdentifierSet.DEFAULT_LOAD_FACTOR);
        for (int i = 0; i < size; i++) {
            long h1 = in.readLong();
            set.add(h1, in.readLong());
        }
        return set;
    }
}
