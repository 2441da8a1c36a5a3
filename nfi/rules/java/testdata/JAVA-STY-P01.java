class A {
    void Run() { // want "JAVA-STY-P01"
    }

    void do_it() { // want "JAVA-STY-P01"
    }

    void doIt2() {
    }

    @Override
    public String toString() {
        return "";
    }
}
