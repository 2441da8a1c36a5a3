package fixture;

public class Undocumented { // want "JAVA-DOC-R01"
    /** Documented. */
    public static class Inner {
    }

    public interface Api { // want "JAVA-DOC-R01"
    }

    class PackageNested {
        public class HiddenByPackage {
        }
    }

    private enum Hidden {
        A
    }

    /** Documented record. */
    // a line comment between is allowed
    public record Point(int x, int y) {
    }

    public @interface Marker { // want "JAVA-DOC-R01"
    }

    @javax.annotation.processing.Generated("tool") // want "JAVA-DOC-R01"
    public class Generated {
    }
}

class PackagePrivate {
}
