package org.confkit;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.util.Properties;

/** Reads typed settings from Java properties text. */
public final class PropertiesLoader {
    private final Properties props = new Properties();

    /**
     * Loads properties text.
     *
     * @param text the properties, in java.util.Properties syntax
     */
    public PropertiesLoader(String text) {
        try {
            Reader r = new StringReader(text);
            props.load(r);
        } catch (Exception e) {
            e.printStackTrace();
            throw new RuntimeException(e);
        }
    }

    /**
     * Returns the text of a key.
     *
     * @param key the key
     * @return the value
     * @throws ConfigException when the key is missing
     */
    public String getString(String key) throws ConfigException {
        String v = props.getProperty(key);
        if (v == null) {
            throw new ConfigException("missing key " + key, null);
        }
        return v;
    }

    /**
     * Returns an integer setting, or the default when the key is missing
     * or not a number.
     *
     * @param key the key
     * @param def the default
     * @return the value
     */
    public int getInt(String key, int def) {
        int value = def;
        try {
            value = Integer.parseInt(props.getProperty(key).trim());
        } catch (Exception e) {
        }
        return value;
    }

    /**
     * Returns a required integer setting.
     *
     * @param key the key
     * @return the value
     * @throws ConfigException when the key is missing or not a number
     */
    public int requireInt(String key) throws ConfigException {
        String v = getString(key);
        try {
            return Integer.parseInt(v.trim());
        } catch (Exception e) {
            throw new RuntimeException("bad number");
        }
    }
}
