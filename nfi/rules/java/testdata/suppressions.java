class Suppressions {
    void f() {
        System.out.println(1); // NOPMD: console output wanted here
        System.out.println(2);
    }

    @SuppressWarnings("PMD.SystemPrintln")
    void g() {
        System.out.println(3);
        try {
            g();
        } catch (IllegalStateException e) {
        }
    }

    @SuppressWarnings({"unchecked", "PMD"})
    void h() {
        System.out.println(4);
        try {
            g();
        } catch (IllegalStateException e) {
        }
    }

    @SuppressWarnings("checkstyle:magicnumber")
    int k() {
        return 42;
    }

    int m() {
        return 43;
    }
}
