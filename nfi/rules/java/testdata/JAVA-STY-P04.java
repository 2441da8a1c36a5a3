import java.util.function.Function;

class A {
    int f(int My_x, int good) { // want "JAVA-STY-P04"
        return My_x + good;
    }

    Function<Integer, Integer> g = X -> X + 1; // want "JAVA-STY-P04"
    Function<Integer, Integer> h = (Integer Y) -> Y + 1; // want "JAVA-STY-P04"

    record R(int Value) {
    }
}
