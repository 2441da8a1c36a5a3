type A = { a: number }; // want "JS-STY-P09"
type B = string | number;
interface C { c: number }
type M<T> = { [K in keyof T]: T[K] };
