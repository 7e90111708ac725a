package dev.a2atasks.bench;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * A lean HTTP/1.1 client for one load thread: one keep-alive connection, each request written in
 * one write, its answer read by Content-Length or by chunks, on the calling thread. The JDK's
 * {@code HttpClient} passes every exchange between its selector thread and an executor: on two
 * cores shared by the service, PostgreSQL and the load, what that costs is taken from the service
 * being measured (the gRPC client reads on its own Netty thread but sends no hand-offs per call).
 * Not a general client: no redirects, no TLS, no 1xx, no pipelining.
 */
final class Http1 implements AutoCloseable {

    private final String host;
    private final int port;
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    /** A status and a body. */
    record Response(int status, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    Http1(String host, int port) {
        this.host = host;
        this.port = port;
    }

    /** {@code headers}: lines "Name: value\r\n" besides Host, Content-Length and Connection. */
    Response exchange(String method, String target, String headers, byte[] body) throws IOException {
        if (socket == null) {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(60_000);
            socket.connect(new InetSocketAddress(host, port), 10_000);
            in = new BufferedInputStream(socket.getInputStream(), 65536);
            out = socket.getOutputStream();
        }
        ByteArrayOutputStream request = new ByteArrayOutputStream(512 + (body == null ? 0 : body.length));
        request.writeBytes((method + " " + target + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n" + headers
                + (body == null ? "" : "Content-Length: " + body.length + "\r\n") + "\r\n").getBytes(StandardCharsets.US_ASCII));
        if (body != null) {
            request.writeBytes(body);
        }
        out.write(request.toByteArray());
        out.flush();
        String status = line();
        if (!status.startsWith("HTTP/1.1 ") || status.length() < 12) {
            throw new IOException("not an HTTP/1.1 answer: " + status);
        }
        int code = Integer.parseInt(status.substring(9, 12));
        long length = -1;
        boolean chunked = false;
        boolean close = false;
        for (String header; !(header = line()).isEmpty();) {
            int colon = header.indexOf(':');
            String name = header.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = header.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> length = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
                case "connection" -> close = value.equalsIgnoreCase("close");
                default -> {
                }
            }
        }
        byte[] answer;
        if (chunked) {
            ByteArrayOutputStream chunks = new ByteArrayOutputStream();
            for (int size; (size = Integer.parseInt(line().split(";")[0].trim(), 16)) > 0;) {
                chunks.writeBytes(in.readNBytes(size));
                line();
            }
            while (!line().isEmpty()) {
                // trailers
            }
            answer = chunks.toByteArray();
        } else if (length >= 0) {
            answer = in.readNBytes((int) length);
            if (answer.length < length) {
                throw new IOException("the connection ended inside the body");
            }
        } else {
            answer = in.readAllBytes();
            close = true;
        }
        if (close) {
            close();
        }
        return new Response(code, answer);
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b; (b = in.read()) != '\n';) {
            if (b < 0) {
                throw new IOException("the connection ended");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    @Override
    public void close() throws IOException {
        if (socket != null) {
            socket.close();
            socket = null;
        }
    }
}
