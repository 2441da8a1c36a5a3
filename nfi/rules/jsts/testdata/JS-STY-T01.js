function ok(a, b, c) {}
function bad(a, b, c, d) {} // want "JS-STY-T01"
const arrow = (a, b, c, ...d) => a; // want "JS-STY-T01"
const one = x => x;
