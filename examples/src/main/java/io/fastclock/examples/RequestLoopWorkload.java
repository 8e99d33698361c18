package io.fastclock.examples;

import java.util.List;

/**
 * Use case 1 of the article: an in-process request loop that times every request with
 * System.nanoTime() and flags the abnormally slow ones (over 1 ms). The handler itself is a small
 * fixed amount of work (hashing a 64-byte request), as in a fast service.
 */
final class RequestLoopWorkload implements Workload {

    static final long SLOW_NANOS = 1_000_000L;
    private static final int BATCH = 100;

    @Override
    public String name() {
        return "request loop";
    }

    @Override
    public String operation() {
        return "handle a request, timed with 2 x nanoTime, flag it if > 1 ms";
    }

    @Override
    public Worker newWorker() {
        return new Loop();
    }

    @Override
    public String detail(List<Worker> workers) {
        long slow = 0;
        long requests = 0;
        for (Worker w : workers) {
            slow += ((Loop) w).slow;
            requests += ((Loop) w).requests;
        }
        return "slow (> 1 ms): " + slow + " of " + requests;
    }

    static final class Loop implements Worker {
        private final byte[] request = new byte[64];
        private long requests;
        private long slow;
        private long sum;

        @Override
        public void runBatch() {
            for (int i = 0; i < BATCH; i++) {
                long start = System.nanoTime();
                long response = handle(requests++);
                long elapsed = System.nanoTime() - start;
                if (elapsed > SLOW_NANOS) {
                    slow++;
                }
                sum += response;
            }
        }

        /** The request handler: FNV-1a over the request bytes, with the request number mixed in. */
        private long handle(long id) {
            request[(int) (id & 63)] = (byte) id;
            long h = 0xcbf29ce484222325L;
            for (byte b : request) {
                h = (h ^ b) * 0x100000001b3L;
            }
            return h;
        }

        @Override
        public int batchSize() {
            return BATCH;
        }

        @Override
        public long sink() {
            return sum + slow;
        }
    }
}
