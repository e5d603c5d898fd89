package io.erasure.deletionlog.client;

import java.util.List;

/** A page of records and the opaque cursor of the next page (null on the last page). */
public record LogPage(List<LoggedRecord> records, String nextCursor) {

    public LogPage {
        records = List.copyOf(records);
    }
}
