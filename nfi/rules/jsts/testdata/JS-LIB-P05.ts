namespace A { // want "JS-LIB-P05"
  export const x = 1;
}
module B {} // want "JS-LIB-P05"
declare module "lib" {}
declare global {}
