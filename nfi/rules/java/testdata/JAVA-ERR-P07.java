class A {
    int f() {
        try {
            return g();
        } finally {
            return 0; // want "JAVA-ERR-P07"
        }
    }

    int h() {
        try {
            return g();
        } finally {
            Runnable r = () -> {
                return;
            };
            r.run();
        }
    }

    int g() {
        return 1;
    }
}
