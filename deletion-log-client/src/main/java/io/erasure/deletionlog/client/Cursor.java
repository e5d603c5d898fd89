package io.erasure.deletionlog.client;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * Where a paged read stopped: the index of the partition being read (time bucket or run shard) and
 * the driver's paging state inside it. Opaque to callers (URL-safe base64).
 */
record Cursor(int part, ByteBuffer pagingState) {

    static final Cursor START = new Cursor(0, null);

    static Cursor parse(String text) {
        if (text == null || text.isBlank()) {
            return START;
        }
        try {
            String decoded = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.UTF_8);
            int colon = decoded.indexOf(':');
            int part = Integer.parseInt(decoded.substring(0, colon));
            String state = decoded.substring(colon + 1);
            return new Cursor(
                    part,
                    state.isEmpty() ? null : ByteBuffer.wrap(Base64.getDecoder().decode(state)));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(
                    "cursor is not one this API returned; pass nextCursor unchanged or omit it");
        }
    }

    String render() {
        String state = "";
        if (pagingState != null) {
            byte[] bytes = new byte[pagingState.remaining()];
            pagingState.duplicate().get(bytes);
            state = Base64.getEncoder().encodeToString(bytes);
        }
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString((part + ":" + state).getBytes(StandardCharsets.UTF_8));
    }
}
