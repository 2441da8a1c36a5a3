class A {
    static {
    } // want:2 "JAVA-LOG-P03"

    void f(int x) {
        if (x > 0) { // want "JAVA-LOG-P03"
        }
        while (x > 0) { // want "JAVA-LOG-P03"
            // waiting
        }
        try { // want "JAVA-LOG-P03"
        } finally { // want "JAVA-LOG-P03"
        }
        synchronized (this) { // want "JAVA-LOG-P03"
        }
        if (x < 0) {
            x++;
        } else { // want "JAVA-LOG-P03"
        }
        for (int i = 0; i < x; i++) {
            x--;
        }
    }
}
