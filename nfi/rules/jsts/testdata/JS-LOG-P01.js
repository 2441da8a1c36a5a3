if (a == b) {} // want "JS-LOG-P01"
if (a != null) {} // want "JS-LOG-P01"
if (a === b) {}
