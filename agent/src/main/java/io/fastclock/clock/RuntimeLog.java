package io.fastclock.clock;

import io.fastclock.config.OneLine;

/** Where the runtime reports the rare events it must not keep quiet about (a TSC fallback). */
public interface RuntimeLog {
    void warn(String message);

    RuntimeLog STDERR = message -> System.err.println(OneLine.prefixed(message));
}
