package io.fastclock.examples;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Use case 2 of the article: a cache whose entries are stamped with the wall clock when put and
 * expire a fixed time later, checked on every get. Not thread-safe: one per thread.
 */
final class TtlCache<K, V> {

    private static final class Entry<V> {
        final V value;
        final long stampMillis;

        Entry(V value, long stampMillis) {
            this.value = value;
            this.stampMillis = stampMillis;
        }
    }

    private final Map<K, Entry<V>> map = new HashMap<>();
    private final LongSupplier clockMillis;
    private final long ttlMillis;
    private long expired;

    /**
     * @param clockMillis the wall clock in ms, e.g. {@code System::currentTimeMillis}
     * @param ttlMillis how long an entry lives, at least 1
     */
    TtlCache(LongSupplier clockMillis, long ttlMillis) {
        if (ttlMillis < 1) {
            throw new IllegalArgumentException("ttlMillis must be at least 1, was " + ttlMillis);
        }
        this.clockMillis = clockMillis;
        this.ttlMillis = ttlMillis;
    }

    void put(K key, V value) {
        map.put(key, new Entry<>(value, clockMillis.getAsLong()));
    }

    /** The value, or null if absent or expired (an expired entry is removed). */
    V get(K key) {
        Entry<V> e = map.get(key);
        if (e == null) {
            return null;
        }
        long age = clockMillis.getAsLong() - e.stampMillis;
        // A wall clock stepped backwards makes age negative: treat that as expired too, rather than
        // keeping the entry until the clock catches up.
        if (age >= ttlMillis || age < 0) {
            map.remove(key);
            expired++;
            return null;
        }
        return e.value;
    }

    int size() {
        return map.size();
    }

    /** Entries removed by get() because they had expired. */
    long expired() {
        return expired;
    }
}
