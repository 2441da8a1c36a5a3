class A {
    void f() {
        try {
            g();
        } finally {
            if (g() > 0) {
                throw new IllegalStateException(); // want "JAVA-ERR-P08"
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
