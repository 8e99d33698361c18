package io.fastclock.rewrite;

/** One rewrite's outcome: the new class file and how many clock references were swapped in it. */
public final class Rewritten {
    private final byte[] bytes;
    private final int callSites;

    public Rewritten(byte[] bytes, int callSites) {
        this.bytes = bytes;
        this.callSites = callSites;
    }

    public byte[] bytes() {
        return bytes;
    }

    public int callSites() {
        return callSites;
    }
}
