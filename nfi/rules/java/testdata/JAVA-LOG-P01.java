class A {
    boolean f(String s) {
        boolean a = s == "yes"; // want "JAVA-LOG-P01"
        boolean b = "no" != s; // want "JAVA-LOG-P01"
        boolean c = s == null;
        boolean d = "yes".equals(s);
        return a && b && c && d;
    }
}
