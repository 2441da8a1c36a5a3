class OnlyEquals {
    @Override
    public boolean equals(Object o) { // want "JAVA-LOG-P02"
        return o == this;
    }
}

class OnlyHashCode {
    @Override
    public int hashCode() { // want "JAVA-LOG-P02"
        return 1;
    }
}

class Both {
    @Override
    public boolean equals(Object o) {
        return o == this;
    }

    @Override
    public int hashCode() {
        return 1;
    }
}

class Overload {
    public boolean equals(Overload o) {
        return o == this;
    }
}
