import java.util.Map;

class A {
    java.util.Hashtable<String, String> h; // want "JAVA-LIB-P05"
    Map<String, String> m = new java.util.HashMap<>();
}
