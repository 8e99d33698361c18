package io.fastclock.examples;

import java.util.List;

/**
 * Use case 2 under load: look keys up in a {@link TtlCache} stamped with
 * System.currentTimeMillis (through a method reference), putting them back on a miss.
 */
final class TtlCacheWorkload implements Workload {

    private static final int KEYS = 4096;
    private static final long TTL_MILLIS = 20;
    private static final int BATCH = 100;
    private static final Integer[] KEY_OBJECTS = new Integer[KEYS];

    static {
        for (int i = 0; i < KEYS; i++) {
            KEY_OBJECTS[i] = i;
        }
    }

    @Override
    public String name() {
        return "ttl cache";
    }

    @Override
    public String operation() {
        return "get (1 x currentTimeMillis), put on miss (1 more); TTL " + TTL_MILLIS + " ms";
    }

    @Override
    public Worker newWorker() {
        return new Lookups();
    }

    @Override
    public String detail(List<Worker> workers) {
        long hits = 0;
        long gets = 0;
        long expired = 0;
        for (Worker w : workers) {
            Lookups l = (Lookups) w;
            hits += l.hits;
            gets += l.gets;
            expired += l.cache.expired();
        }
        return String.format(java.util.Locale.ROOT, "hit rate %.1f%%, expired %d",
                gets == 0 ? 0.0 : 100.0 * hits / gets, expired);
    }

    static final class Lookups implements Worker {
        final TtlCache<Integer, String> cache = new TtlCache<>(System::currentTimeMillis, TTL_MILLIS);
        private int next;
        private long hits;
        private long gets;
        private long sum;

        @Override
        public void runBatch() {
            for (int i = 0; i < BATCH; i++) {
                next = next * 1103515245 + 12345;
                Integer key = KEY_OBJECTS[(next >>> 8) & (KEYS - 1)];
                String v = cache.get(key);
                gets++;
                if (v == null) {
                    v = "value-" + key;
                    cache.put(key, v);
                } else {
                    hits++;
                }
                sum += v.length();
            }
        }

        @Override
        public int batchSize() {
            return BATCH;
        }

        @Override
        public long sink() {
            return sum;
        }
    }
}
