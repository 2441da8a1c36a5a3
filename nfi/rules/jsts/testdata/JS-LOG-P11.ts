let a: any; // want "JS-LOG-P11"
function f(x: unknown): any { return x; } // want "JS-LOG-P11"
const b = c as any; // want "JS-LOG-P11"
let d: number;
