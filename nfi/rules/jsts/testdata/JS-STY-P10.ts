module A {} // want "JS-STY-P10"
declare module B {} // want "JS-STY-P10"
declare module "c" {}
namespace D {}
declare global {}
