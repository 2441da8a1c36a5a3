package org.confkit;

/** A configuration value that is missing or cannot be read. */
public class ConfigException extends Exception {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong, naming the key
     * @param cause the underlying error, or null
     */
    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
