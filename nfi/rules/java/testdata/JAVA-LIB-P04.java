import java.util.List;
import java.util.Vector;

class A {
    Vector<String> v = new Vector<>(); // want "JAVA-LIB-P04" "JAVA-LIB-P04"
    List<String> l = new java.util.ArrayList<>();
}
