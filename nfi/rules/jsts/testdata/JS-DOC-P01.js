// TODO: later // want "JS-DOC-P01"
/* fixme now */ // want "JS-DOC-P01"
// not a todo here
// todos are fine mid-word? no: "todos" does not start with the word todo
/** XXX */
