package fixture;

/** A documented type. */
public class Api {
    public Api() { // want "JAVA-DOC-R02"
    }

    /** Documented. */
    public void documented() {
    }

    public int undocumented(int x) { // want "JAVA-DOC-R02"
        return x;
    }

    @Override
    public String toString() {
        return "Api";
    }

    protected void notPublic() {
    }

    void packagePrivate() {
    }

    /* not Javadoc */
    public void plainComment() { // want "JAVA-DOC-R02"
    }

    /** Documented, annotation between. */
    @Deprecated
    public void annotated() {
    }

    /** Inner. */
    public interface Callback {
        void call(); // want "JAVA-DOC-R02"

        /** Documented. */
        void documented();
    }

    Runnable r = new Runnable() {
        public void run() {
        }
    };

    static class Hidden {
        public void notChecked() {
        }
    }
}
