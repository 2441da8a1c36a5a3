/** Documented. */
export function ok() {}
export function bad() {} // want "JS-DOC-R01"
export class Bad {} // want "JS-DOC-R01"
export const notAFunction = 1;
// a line comment is not a doc comment
export default function () {} // want "JS-DOC-R01"
