package io.fastclock.it.apps;

import java.util.Properties;

/**
 * System properties as a hostile application installs them (System.setProperties): the same table,
 * with code of its own run on every read and write, on whichever thread reads, fastclock's included.
 */
public class HookedProperties extends Properties {
    private static final long serialVersionUID = 1L;
    private final transient Runnable hook;

    public HookedProperties(Properties from, Runnable hook) {
        putAll(from);
        this.hook = hook;
    }

    @Override
    public String getProperty(String key) {
        hook.run();
        return super.getProperty(key);
    }

    @Override
    public String getProperty(String key, String defaultValue) {
        hook.run();
        return super.getProperty(key, defaultValue);
    }

    @Override
    public Object setProperty(String key, String value) {
        hook.run();
        return super.setProperty(key, value);
    }
}
