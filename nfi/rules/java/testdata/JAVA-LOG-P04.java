class A {
    int f() {
        int unusedTotal = 3; // want "JAVA-LOG-P04"
        int used = 4;
        int assignedOnly;
        assignedOnly = 1;
        Runnable r = () -> System.out.println(used);
        r.run();
        for (int i = 0; i < 3; i++) {
            int inner = i; // want "JAVA-LOG-P04"
        }
        return 1;
    }
}
