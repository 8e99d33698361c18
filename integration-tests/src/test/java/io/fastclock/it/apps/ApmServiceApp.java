package io.fastclock.it.apps;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small HTTP service as an APM agent sees one: the JDK's HttpServer, and a client in the same JVM
 * that calls it through HttpURLConnection, one request at a time on a kept-alive connection. Each
 * request is timed with nanoTime and stamped with Instant.now(), as a service's handler does.
 * OpenTelemetry's javaagent makes a client span for each call and injects its context as a W3C
 * {@code traceparent} header, and a server span from it: the handler counts the requests that came
 * with a sampled context of a trace not seen before ({@code traced=}), which an agent that makes no
 * span (or the same one twice) cannot fake.
 *
 * <p>The counted window (the simulator's count, {@link CountedWindow}) covers the client thread and
 * the server's worker for {@value #REQUESTS} requests after {@value #WARM_UP} of warm-up; the
 * worker's name is set before the server's filters (an agent's server span) run.
 *
 * <p>args: {@code fastclock|none [TRIGGER]}. With fastclock, waits for its verdict
 * ({@code fastclock.active} is published after it, whatever start= says); with a TRIGGER file, waits
 * for it first (an attach meanwhile). Prints {@code fastclock.active=}, {@code requests=},
 * {@code traced=}, {@code failed=}; main returns.
 */
public final class ApmServiceApp {
    public static final int REQUESTS = 2000;
    /**
     * Enough for the JIT to have compiled what a request runs: a compile request and a class loaded
     * read the clock in the JVM's own code, from the thread that asks, and an agent's code asks for
     * thousands of them.
     */
    static final int WARM_UP = 5000;
    static final long WAIT_MILLIS = 60_000;
    private static volatile boolean counting;

    public static void main(String[] args) throws Exception {
        if (args.length > 1) {
            System.out.println("waiting=1");
            awaitFile(args[1]);
        }
        if (args[0].equals("fastclock")) {
            awaitVerdict();
        }
        // Without it each response waits for the client's delayed ACK (Nagle): 40 ms a request.
        System.setProperty("sun.net.httpserver.nodelay", "true");
        Set<String> traces = ConcurrentHashMap.newKeySet();
        AtomicLong traced = new AtomicLong();
        ExecutorService worker = Executors.newSingleThreadExecutor(r -> new Thread(r, "service-worker"));
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> handle(exchange, traces, traced));
        server.setExecutor(task -> worker.execute(() -> {
            nameForWindow();
            task.run();
        }));
        server.start();
        URL url = new URL("http://127.0.0.1:" + server.getAddress().getPort() + "/order");
        long failed = 0;
        try {
            for (int i = 0; i < WARM_UP; i++) {
                failed += call(url);
            }
            long[] inWindow = new long[1];
            counting = true;
            CountedWindow.run(REQUESTS, () -> inWindow[0] += call(url));
            counting = false;
            failed += inWindow[0];
        } finally {
            server.stop(0);
            worker.shutdownNow();
        }
        System.out.println("fastclock.active=" + System.getProperty("fastclock.active"));
        System.out.println("requests=" + (WARM_UP + REQUESTS));
        System.out.println("traced=" + traced.get());
        System.out.println("failed=" + failed);
    }

    /** The worker counts as in the window for a whole exchange when the window was open as the exchange began. */
    private static void nameForWindow() {
        String name = counting ? CountedWindow.THREAD_NAME : "service-worker";
        if (!Thread.currentThread().getName().equals(name)) {
            Thread.currentThread().setName(name);
        }
    }

    private static void handle(HttpExchange exchange, Set<String> traces, AtomicLong traced) throws IOException {
        long start = System.nanoTime();
        String parent = exchange.getRequestHeaders().getFirst("traceparent");
        // version-traceid-spanid-flags; flags 01: sampled
        if (parent != null && parent.length() == 55 && parent.endsWith("-01") && traces.add(parent.substring(3, 35))) {
            traced.incrementAndGet();
        }
        byte[] body = ("ok " + Instant.now() + " " + (System.nanoTime() - start) + "\n").getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    /** 0 when the service answered 200 with its body, else 1. */
    private static long call(URL url) {
        try {
            HttpURLConnection c = (HttpURLConnection) url.openConnection();
            int status = c.getResponseCode();
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            try (InputStream in = c.getInputStream()) {
                in.transferTo(body);
            }
            return status == 200 && body.toString(StandardCharsets.UTF_8.name()).startsWith("ok ") ? 0 : 1;
        } catch (IOException e) {
            return 1;
        }
    }

    private static void awaitFile(String path) throws InterruptedException {
        long deadline = ReferenceClocks.millis() + WAIT_MILLIS;
        while (!Files.exists(Paths.get(path)) && ReferenceClocks.millis() < deadline) {
            Thread.sleep(20);
        }
    }

    private static void awaitVerdict() throws InterruptedException {
        long deadline = ReferenceClocks.millis() + WAIT_MILLIS;
        while (System.getProperty("fastclock.active") == null && ReferenceClocks.millis() < deadline) {
            Thread.sleep(20);
        }
    }
}
