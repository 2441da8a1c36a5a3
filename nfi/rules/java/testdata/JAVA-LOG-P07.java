class A {
    boolean f(int x) {
        if (x > 0) { // want "JAVA-LOG-P07"
            return true;
        } else {
            return false;
        }
    }

    boolean g(int x) {
        if (x > 0) return false; // want "JAVA-LOG-P07"
        return true;
    }

    boolean h(int x) {
        if (x > 0) {
            return true;
        }
        x++;
        return false;
    }
}
