class my_class { // want "JAVA-STY-P02"
    interface callback { // want "JAVA-STY-P02"
    }

    enum Colour {
        RED
    }

    record point(int x) { // want "JAVA-STY-P02"
    }
}

class Good {
}
