class A {
    int x, y; // want "JAVA-STY-P07"
    int a,
        b;

    void f() {
        String s = "", t = ""; // want "JAVA-STY-P07"
        for (int i = 0, j = 1; i < j; i++) {
            s += t;
        }
    }
}
