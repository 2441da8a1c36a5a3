import java.util.function.Supplier;

class A {
    private void helper() { // want "JAVA-LOG-P06"
    }

    private int used() {
        return 1;
    }

    private int referenced() {
        return 2;
    }

    private void writeObject(java.io.ObjectOutputStream out) {
    }

    int f() {
        Supplier<Integer> s = this::referenced;
        return used() + s.get();
    }
}
