const a = [1, , 2]; // want "JS-LOG-P05"
const b = [, 1]; // want "JS-LOG-P05"
const c = [1, 2,];
const [, d] = c;
