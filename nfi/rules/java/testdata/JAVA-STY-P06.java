class A {
    int f(int x) {
        if (x > 0) return 1; // want "JAVA-STY-P06"
        if (x < 0) {
            return -1;
        } else return 0; // want "JAVA-STY-P06"
    }

    void g(int x) {
        if (x > 0) {
            x--;
        } else if (x < 0) {
            x++;
        } else {
            x = 1;
        }
        while (x > 0) x--; // want "JAVA-STY-P06"
        for (int i = 0; i < x; i++) x--; // want "JAVA-STY-P06"
        do x++; while (x < 5); // want "JAVA-STY-P06"
    }
}
