a = b = c; // want "JS-STY-P02"
let x = y = 1; // want "JS-STY-P02"
a = 1;
a += b = 2; // want "JS-STY-P02"
