if (!a in b) {} // want "JS-LOG-P09"
if (!a instanceof B) {} // want "JS-LOG-P09"
if (!(a in b)) {}
