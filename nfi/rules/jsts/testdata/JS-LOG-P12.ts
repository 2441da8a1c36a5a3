const a = b!; // want "JS-LOG-P12"
const c = d!.e; // want "JS-LOG-P12"
const f = g?.h;
