class A {
    void f(int x) {
        while (x > 0) {
            x--;
            continue;
        }
        if (x == 0) {
            return;
            x++; // want "JAVA-LOG-P08"
        }
        switch (x) {
            case 1:
                x++;
                break;
            default:
                x--;
        }
    }
}
