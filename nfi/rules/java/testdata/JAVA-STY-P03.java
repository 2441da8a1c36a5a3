class A {
    void f() {
        int My_count = 1; // want "JAVA-STY-P03"
        final int MAX = 2; // want "JAVA-STY-P03"
        int ok = My_count + MAX;
        for (int I = 0; I < ok; I++) { // want "JAVA-STY-P03"
            ok++;
        }
        for (String S : new String[0]) {
            ok += S.length();
        }
        try {
            ok++;
        } catch (IllegalStateException E) { // want "JAVA-STY-P03"
            ok--;
        }
    }
}
