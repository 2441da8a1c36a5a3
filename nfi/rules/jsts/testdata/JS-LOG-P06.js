if (x === NaN) {} // want "JS-LOG-P06"
if (x < Number.NaN) {} // want "JS-LOG-P06"
switch (NaN) {} // want "JS-LOG-P06"
if (Number.isNaN(x)) {}
