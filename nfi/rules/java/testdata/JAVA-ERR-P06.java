class A {
    void f() {
        try {
            g();
        } catch (IllegalStateException e) {
            e.printStackTrace(); // want "JAVA-ERR-P06"
        }
        try {
            g();
        } catch (IllegalArgumentException e) {
            e.printStackTrace(System.out);
        }
    }

    void g() {}
}
