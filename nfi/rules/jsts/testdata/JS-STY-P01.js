var a = 1; // want "JS-STY-P01"
let b = 2;
for (var i = 0; i < 1; i += 1) {} // want "JS-STY-P01"
