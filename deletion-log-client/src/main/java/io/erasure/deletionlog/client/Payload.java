package io.erasure.deletionlog.client;

import io.erasure.model.record.ColumnValue;
import java.util.List;
import java.util.Map;

/** What is encrypted per record: everything that may identify a person. */
record Payload(Map<String, Object> primaryKey, List<ColumnValue> columns) {}
