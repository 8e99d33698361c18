package io.fastclock.agent;

import io.fastclock.config.OneLine;
import io.fastclock.config.Settings;
import io.fastclock.clock.RuntimeLog;

/**
 * The agent's voice: stderr only, one line per event, every line prefixed (OneLine.PREFIX), control
 * characters escaped (OneLine), so that a name or value from outside never starts a line of its own.
 */
final class AgentLog implements RuntimeLog {
    private final Settings.Log level;

    AgentLog(Settings.Log level) {
        this.level = level;
    }

    /** The start-up line and warnings: silent only with log=quiet. */
    void info(String message) {
        if (level != Settings.Log.QUIET) {
            System.err.println(prefixed(message));
        }
    }

    void debug(String message) {
        if (level == Settings.Log.DEBUG) {
            System.err.println(prefixed(message));
        }
    }

    private static String prefixed(String message) {
        return OneLine.prefixed(OneLine.escape(message));
    }

    boolean debugEnabled() {
        return level == Settings.Log.DEBUG;
    }

    @Override
    public void warn(String message) {
        info(message);
    }
}
