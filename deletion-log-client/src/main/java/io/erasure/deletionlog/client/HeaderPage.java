package io.erasure.deletionlog.client;

import java.util.List;

/** A page of record headers and the opaque cursor of the next page (null on the last page). */
public record HeaderPage(List<RecordHeader> headers, String nextCursor) {

    public HeaderPage {
        headers = List.copyOf(headers);
    }
}
