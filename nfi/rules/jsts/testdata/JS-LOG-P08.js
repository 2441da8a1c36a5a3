if (x === -0) {} // want "JS-LOG-P08"
if (x > -0.0) {} // want "JS-LOG-P08"
if (x === 0) {}
if (x === -1) {}
