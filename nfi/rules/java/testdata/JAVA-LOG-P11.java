class A {
    void f(boolean x) {
        if (true) { // want "JAVA-LOG-P11"
            g();
        }
        if (false) g(); // want "JAVA-LOG-P11"
        if (x) {
            g();
        }
    }

    void g() {}
}
