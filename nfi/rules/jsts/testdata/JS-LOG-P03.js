if (x === x) {} // want "JS-LOG-P03"
if (a.b < a.b) {} // want "JS-LOG-P03"
if (x === y) {}
const z = x + x;
