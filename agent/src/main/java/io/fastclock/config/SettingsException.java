package io.fastclock.config;

/**
 * A setting that cannot be accepted. The message is one line that names the setting, the value,
 * where it came from and what is accepted, ready to be printed on stderr as it is.
 */
public final class SettingsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SettingsException(String message) {
        super(message);
    }
}
