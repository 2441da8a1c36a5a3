debugger; // want "JS-LOG-P02"
f();
