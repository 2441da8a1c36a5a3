export { decodeComponent, encodeComponent } from './encoding';
export { parse, splitKey } from './parse';
export { stringify } from './stringify';
export type { ParseOptions, QueryObject, QueryValue, StringifyOptions } from './types';
