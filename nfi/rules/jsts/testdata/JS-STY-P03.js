const a = x ? 1 : y ? 2 : 3; // want "JS-STY-P03"
const b = x ? (y ? 1 : 2) : 3; // want "JS-STY-P03"
const c = (x ? 1 : 2) ? 3 : 4;
