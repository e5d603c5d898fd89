package io.erasure.support.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses a request body larger than {@code erasure.http.max-request-body} with 413, before anything reads it.
 * A body that declares its length is refused at once, so a client that sends {@code Expect: 100-continue} (curl
 * does for large bodies) never sends it at all; a chunked body is counted as it is read, and the read that passes
 * the limit fails with {@link TooLarge}, which {@link RequestBodyErrors} answers with the same 413. Either way the
 * handler never sees the request, so nothing is stored.
 *
 * <p>Runs before authentication: the refusal depends on the size alone and says nothing about the caller.
 */
public final class RequestBodyLimit extends OncePerRequestFilter {

    private final long maxBytes;
    private final String refusal;

    public RequestBodyLimit(RequestLimitsProperties properties) {
        this.maxBytes = properties.maxRequestBody().toBytes();
        this.refusal = "the request body is larger than " + maxBytes + " bytes, the most this service reads ("
                + RequestLimitsProperties.MAX_REQUEST_BODY + "); send a smaller request (split it: a recovery by keys,"
                + " a forward request's child ids) or ask an operator to raise "
                + RequestLimitsProperties.MAX_REQUEST_BODY;
    }

    /** What the 413 says: the limit and the property that sets it. */
    public String refusal() {
        return refusal;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > maxBytes) {
            refuse(response);
            return;
        }
        try {
            chain.doFilter(new Counted(request, maxBytes), response);
        } catch (ServletException | IOException | RuntimeException e) {
            // a body read outside a message converter (none today): the same answer if it is still possible
            if (TooLarge.in(e) && !response.isCommitted()) {
                response.resetBuffer();
                refuse(response);
                return;
            }
            throw e;
        }
    }

    private void refuse(HttpServletResponse response) throws IOException {
        response.setStatus(HttpStatus.CONTENT_TOO_LARGE.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter()
                .write("{\"type\":\"about:blank\",\"title\":\"Content Too Large\",\"status\":413,\"detail\":\""
                        + refusal + "\"}");
    }

    /** The read that passed the limit: the body is refused, with the limit. */
    public static final class TooLarge extends IOException {

        TooLarge(long maxBytes) {
            super("request body larger than " + maxBytes + " bytes (" + RequestLimitsProperties.MAX_REQUEST_BODY + ")");
        }

        /** True if {@code e} or one of its causes is a refusal of the body's size. */
        public static boolean in(Throwable e) {
            for (Throwable cause = e; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
                if (cause instanceof TooLarge) {
                    return true;
                }
            }
            return false;
        }
    }

    /** The request with its body counted as it is read. */
    private static final class Counted extends HttpServletRequestWrapper {

        private final long maxBytes;
        private ServletInputStream stream;
        private BufferedReader reader;

        Counted(HttpServletRequest request, long maxBytes) {
            super(request);
            this.maxBytes = maxBytes;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new CountingStream(super.getInputStream(), maxBytes);
            }
            return stream;
        }

        @Override
        public BufferedReader getReader() throws IOException {
            if (reader == null) {
                String encoding = getCharacterEncoding();
                Charset charset = encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding);
                reader = new BufferedReader(new InputStreamReader(getInputStream(), charset));
            }
            return reader;
        }
    }

    private static final class CountingStream extends ServletInputStream {

        private final ServletInputStream in;
        private final long maxBytes;
        private long read;

        CountingStream(ServletInputStream in, long maxBytes) {
            this.in = in;
            this.maxBytes = maxBytes;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        private void count(int n) throws TooLarge {
            read += n;
            if (read > maxBytes) {
                throw new TooLarge(maxBytes);
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }

        @Override
        public int available() throws IOException {
            return in.available();
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
