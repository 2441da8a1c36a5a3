import java.util.ArrayList;
import java.util.List;
import org.confkit.ConfigException;
import org.confkit.PropertiesLoader;

/**
 * The tests of PropertiesLoader, without a test framework: each check
 * prints a TAP line; the exit status is 1 when one fails.
 */
public final class LoaderTest {
    private interface Check {
        void run() throws Exception;
    }

    private static final List<String> lines = new ArrayList<>();
    private static boolean failed;

    private static void check(String name, Check c) {
        try {
            c.run();
            lines.add("ok " + (lines.size() + 1) + " - " + name);
        } catch (Throwable t) {
            failed = true;
            lines.add("not ok " + (lines.size() + 1) + " - " + name + " # " + t);
        }
    }

    private static void expect(boolean cond, String what) {
        if (!cond) {
            throw new AssertionError(what);
        }
    }

    public static void main(String[] args) {
        PropertiesLoader p = new PropertiesLoader("name = demo\nport = 8080\nretries = x3\n");
        check("getString reads a key", () -> expect(p.getString("name").equals("demo"), "name"));
        check("getString names a missing key", () -> {
            try {
                p.getString("host");
                expect(false, "no exception");
            } catch (ConfigException e) {
                expect(e.getMessage().contains("host"), e.getMessage());
            }
        });
        check("getInt reads a number", () -> expect(p.getInt("port", 1) == 8080, "port"));
        check("getInt default for a missing key", () -> expect(p.getInt("timeout", 30) == 30, "timeout"));
        check("getInt default for a malformed number", () -> expect(p.getInt("retries", 5) == 5, "retries"));
        check("requireInt reads a number", () -> expect(p.requireInt("port") == 8080, "port"));
        check("requireInt fails on a malformed number", () -> {
            try {
                p.requireInt("retries");
                expect(false, "no exception");
            } catch (ConfigException e) {
                expect(e.getMessage().contains("retries"), e.getMessage());
            } catch (RuntimeException e) {
                // the code before reports it so; both are failures the caller sees
                expect(true, "");
            }
        });
        System.out.println("TAP version 13");
        System.out.println("1.." + lines.size());
        lines.forEach(System.out::println);
        System.exit(failed ? 1 : 0);
    }
}
