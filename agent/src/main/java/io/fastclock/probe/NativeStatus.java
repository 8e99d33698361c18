package io.fastclock.probe;

/** Whether the JNI library loaded and whether JNA is usable, with the reason when not. Immutable. */
public final class NativeStatus {
    private final boolean jniLoaded;
    private final String jniProblem;
    private final boolean jnaAvailable;
    private final String jnaProblem;

    /**
     * @param jniProblem why the JNI library did not load (null if it loaded)
     * @param jnaProblem why JNA cannot be used (null if it can)
     */
    public NativeStatus(boolean jniLoaded, String jniProblem, boolean jnaAvailable, String jnaProblem) {
        this.jniLoaded = jniLoaded;
        this.jniProblem = jniLoaded ? null : jniProblem;
        this.jnaAvailable = jnaAvailable;
        this.jnaProblem = jnaAvailable ? null : jnaProblem;
    }

    /** JNI loaded; JNA not looked at. */
    public static NativeStatus jniOnly() {
        return new NativeStatus(true, null, false, "JNA was not looked for because the JNI library loaded");
    }

    public boolean jniLoaded() {
        return jniLoaded;
    }

    /** Why the JNI library did not load, or null if it did. */
    public String jniProblem() {
        return jniProblem;
    }

    public boolean jnaAvailable() {
        return jnaAvailable;
    }

    /** Why JNA cannot be used, or null if it can. */
    public String jnaProblem() {
        return jnaProblem;
    }

    @Override
    public String toString() {
        return "NativeStatus{jni=" + (jniLoaded ? "loaded" : jniProblem) + ", jna="
                + (jnaAvailable ? "available" : jnaProblem) + "}";
    }
}
