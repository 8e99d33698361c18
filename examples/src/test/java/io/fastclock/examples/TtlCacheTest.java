package io.fastclock.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TtlCacheTest {

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final TtlCache<String, String> cache = new TtlCache<>(now::get, 20);

    @Test
    void entryLivesUntilItsTtlHasPassed() {
        cache.put("k", "v");
        now.addAndGet(19);
        assertEquals("v", cache.get("k"));
        now.addAndGet(1);
        assertNull(cache.get("k"));
        assertEquals(0, cache.size());
        assertEquals(1, cache.expired());
    }

    @Test
    void putRestampsTheEntry() {
        cache.put("k", "v1");
        now.addAndGet(15);
        cache.put("k", "v2");
        now.addAndGet(15);
        assertEquals("v2", cache.get("k"));
    }

    @Test
    void aWallClockStepBackwardsExpiresTheEntry() {
        cache.put("k", "v");
        now.addAndGet(-10_000);
        assertNull(cache.get("k"));
        assertEquals(1, cache.expired());
    }

    @Test
    void missingKeyIsNotCountedAsExpired() {
        assertNull(cache.get("absent"));
        assertEquals(0, cache.expired());
    }

    @Test
    void ttlMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new TtlCache<String, String>(now::get, 0));
    }
}
