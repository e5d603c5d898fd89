package io.erasure.store.cassandra.read;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import com.datastax.oss.protocol.internal.ProtocolConstants;
import io.erasure.store.cassandra.schema.TableShape;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A primary key as Cassandra tells rows apart, so that a row a multi-key read returns is tied to the keys that
 * asked for it: per key column the bytes Cassandra stores ({@link StoredValue}), except a clustering
 * {@code decimal}, which Cassandra matches by value ({@code 1.0} finds the row stored as {@code 1.00}) while a
 * partition key is found by its bytes alone. Two spellings of one row have one identity.
 */
final class KeyIdentities {

    private static final ProtocolVersion VERSION = ProtocolVersion.DEFAULT;

    private final List<DataType> types;
    private final int partitionColumns;

    private KeyIdentities(List<DataType> types, int partitionColumns) {
        this.types = List.copyOf(types);
        this.partitionColumns = partitionColumns;
    }

    /** The identities of {@code shape}'s keys; empty if a key column has a type {@link StoredValue} does not model. */
    static Optional<KeyIdentities> of(TableShape shape) {
        List<DataType> types = new ArrayList<>();
        for (String column : shape.primaryKey()) {
            DataType type = shape.keyTypes().get(column);
            if (!StoredValue.modelled(type)) {
                return Optional.empty();
            }
            types.add(type);
        }
        return Optional.of(new KeyIdentities(types, shape.partitionKey().size()));
    }

    /**
     * The identity of a key from its values as bound ({@code fromJson} text per primary key column, in order), or
     * null if the node decides which row it names. A value Cassandra refuses gets a component equal to nothing:
     * the statement carrying it fails, as its point read did.
     */
    List<Object> ofKey(List<Object> boundJson) {
        List<Object> identity = new ArrayList<>(types.size());
        for (int i = 0; i < types.size(); i++) {
            StoredValue.Parsed parsed = StoredValue.parse(types.get(i), (String) boundJson.get(i));
            switch (parsed.outcome()) {
                case NODE_DEPENDENT:
                    return null;
                case REFUSED:
                    identity.add(new Refused());
                    break;
                default:
                    identity.add(component(i, parsed.bytes()));
            }
        }
        return identity;
    }

    /** The identity of a returned row whose key columns, as stored, start at column {@code first}. */
    List<Object> ofRow(Row row, int first) {
        List<Object> identity = new ArrayList<>(types.size());
        for (int i = 0; i < types.size(); i++) {
            ByteBuffer bytes = row.getBytesUnsafe(first + i);
            identity.add(component(i, bytes == null ? ByteBuffer.allocate(0) : bytes));
        }
        return identity;
    }

    /** The partition key's stored bytes of {@code identity}, for routing; null if a component was refused. */
    ByteBuffer[] partitionKey(List<Object> identity) {
        ByteBuffer[] key = new ByteBuffer[partitionColumns];
        for (int i = 0; i < partitionColumns; i++) {
            if (!(identity.get(i) instanceof ByteBuffer bytes)) {
                return null;
            }
            key[i] = bytes.duplicate();
        }
        return key;
    }

    private Object component(int column, ByteBuffer stored) {
        ByteBuffer bytes = stored.asReadOnlyBuffer();
        if (column >= partitionColumns
                && types.get(column).getProtocolCode() == ProtocolConstants.DataType.DECIMAL
                && bytes.hasRemaining()) {
            return TypeCodecs.DECIMAL.decode(bytes.duplicate(), VERSION).stripTrailingZeros();
        }
        return bytes;
    }

    /** A value Cassandra refuses: equal only to itself. */
    private static final class Refused {}
}
