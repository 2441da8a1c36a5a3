class A {
    int complex(int a, boolean b) { // want "JAVA-STY-T03"
        if (a == 1 && b) {
            return 1;
        }
        if (a == 2 || b) {
            return 2;
        }
        for (int i = 0; i < a; i++) {
            a--;
        }
        while (a > 10) {
            a--;
        }
        switch (a) {
            case 3:
                return 3;
            case 4:
                return 4;
            default:
                return b ? 5 : 6;
        }
    }

    int simple(int a) {
        if (a > 0) {
            return 1;
        }
        return 0;
    }
}
