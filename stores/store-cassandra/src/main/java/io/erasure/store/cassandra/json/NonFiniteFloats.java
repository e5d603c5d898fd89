package io.erasure.store.cassandra.json;

import com.datastax.oss.driver.api.core.data.TupleValue;
import com.datastax.oss.driver.api.core.data.UdtValue;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.ListType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.SetType;
import com.datastax.oss.driver.api.core.type.TupleType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import com.datastax.oss.driver.api.core.type.VectorType;
import com.datastax.oss.protocol.internal.ProtocolConstants;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * NaN and the infinities, which Cassandra's {@code toJson} turns into {@code null} (checked on 5.0.6, also
 * inside collections): a float or double column is read natively instead, and a column with floats nested
 * in it is read both ways and the non-finite values are put back into the JSON form as the strings
 * {@code "NaN"}, {@code "Infinity"} and {@code "-Infinity"}, which {@code fromJson} accepts.
 */
public final class NonFiniteFloats {

    private NonFiniteFloats() {}

    /** The platform value of a float or double read natively: non-finite values as strings. */
    public static Object fromNativeFloatingPoint(Object value) {
        if (value instanceof Double d && !Double.isFinite(d)) {
            return d.toString();
        }
        if (value instanceof Float f && !Float.isFinite(f)) {
            return f.toString();
        }
        return value;
    }

    /** True if {@code type} holds a float or double inside a collection, tuple, UDT or vector. */
    public static boolean nestsFloatingPoint(DataType type) {
        return !isFloatingPoint(type) && containsFloatingPoint(type);
    }

    public static boolean isFloatingPoint(DataType type) {
        int code = type.getProtocolCode();
        return code == ProtocolConstants.DataType.DOUBLE || code == ProtocolConstants.DataType.FLOAT;
    }

    private static boolean containsFloatingPoint(DataType type) {
        if (isFloatingPoint(type)) {
            return true;
        }
        if (type instanceof VectorType vector) {
            return containsFloatingPoint(vector.getElementType());
        }
        if (type instanceof ListType list) {
            return containsFloatingPoint(list.getElementType());
        }
        if (type instanceof SetType set) {
            return containsFloatingPoint(set.getElementType());
        }
        if (type instanceof MapType map) {
            return containsFloatingPoint(map.getKeyType()) || containsFloatingPoint(map.getValueType());
        }
        if (type instanceof TupleType tuple) {
            return tuple.getComponentTypes().stream().anyMatch(NonFiniteFloats::containsFloatingPoint);
        }
        if (type instanceof UserDefinedType udt) {
            return udt.getFieldTypes().stream().anyMatch(NonFiniteFloats::containsFloatingPoint);
        }
        return false;
    }

    /**
     * {@code platform} (from {@code toJson}) with the NaN and infinities that {@code toJson} turned into null put
     * back from {@code nativeValue}, the same cell read through the driver. Both come in the node's order.
     */
    public static Object withNonFiniteFloats(DataType type, Object platform, Object nativeValue) {
        if (nativeValue == null) {
            return platform;
        }
        if (isFloatingPoint(type)) {
            return fromNativeFloatingPoint(nativeValue) instanceof String nonFinite ? nonFinite : platform;
        }
        if (platform == null) {
            return null;
        }
        if (type instanceof ListType list) {
            return patchedElements(list.getElementType(), (List<?>) platform, (Iterable<?>) nativeValue);
        }
        if (type instanceof SetType set) {
            return patchedElements(set.getElementType(), (List<?>) platform, (Iterable<?>) nativeValue);
        }
        if (type instanceof VectorType vector) {
            return patchedElements(vector.getElementType(), (List<?>) platform, (Iterable<?>) nativeValue);
        }
        if (type instanceof MapType map) {
            Map<String, Object> patched = new LinkedHashMap<>();
            Iterator<? extends Map.Entry<?, ?>> natives =
                    ((Map<?, ?>) nativeValue).entrySet().iterator();
            for (Map.Entry<?, ?> entry : ((Map<?, ?>) platform).entrySet()) {
                Map.Entry<?, ?> nativeEntry = natives.next();
                Object key = withNonFiniteFloats(map.getKeyType(), entry.getKey(), nativeEntry.getKey());
                patched.put(
                        String.valueOf(key),
                        withNonFiniteFloats(map.getValueType(), entry.getValue(), nativeEntry.getValue()));
            }
            return patched;
        }
        if (type instanceof TupleType tuple) {
            List<?> components = (List<?>) platform;
            TupleValue value = (TupleValue) nativeValue;
            List<Object> patched = new ArrayList<>(components.size());
            for (int i = 0; i < components.size(); i++) {
                patched.add(
                        withNonFiniteFloats(tuple.getComponentTypes().get(i), components.get(i), value.getObject(i)));
            }
            return patched;
        }
        if (type instanceof UserDefinedType udt) {
            Map<?, ?> fields = (Map<?, ?>) platform;
            UdtValue value = (UdtValue) nativeValue;
            Map<String, Object> patched = new LinkedHashMap<>();
            for (int i = 0; i < udt.getFieldNames().size(); i++) {
                String name = udt.getFieldNames().get(i).asInternal();
                patched.put(
                        name, withNonFiniteFloats(udt.getFieldTypes().get(i), fields.get(name), value.getObject(i)));
            }
            return patched;
        }
        return platform;
    }

    private static List<Object> patchedElements(DataType elementType, List<?> platform, Iterable<?> natives) {
        List<Object> patched = new ArrayList<>(platform.size());
        Iterator<?> nativeElements = natives.iterator();
        for (Object element : platform) {
            patched.add(withNonFiniteFloats(elementType, element, nativeElements.next()));
        }
        return patched;
    }
}
