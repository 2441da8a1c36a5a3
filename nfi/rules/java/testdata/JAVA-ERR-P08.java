class A {
    void f() {
        try {
            g();
        } finally { // want "JAVA-ERR-P08"
            if (g() > 0) {
                throw new IllegalStateException();
            }
        }
    }

    void h() {
        try {
            g();
        } catch (IllegalStateException e) {
            throw new IllegalArgumentException(e);
        }
    }

    int g() {
        return 1;
    }
}
