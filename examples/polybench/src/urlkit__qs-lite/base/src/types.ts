/** A parsed query value: a string, an array of values, or a nested object. */
export type QueryValue = string | QueryValue[] | QueryObject;

/** A parsed query string. */
export interface QueryObject {
  [key: string]: QueryValue;
}

/** Options of parse. */
export interface ParseOptions {
  /** Deepest nesting kept; deeper brackets stay part of the key. Default 5. */
  depth?: number;
  /** At most this many pairs are read; the rest is ignored. Default 1000. */
  parameterLimit?: number;
}

/** Options of stringify. */
export interface StringifyOptions {
  /** Write arrays as "a[]=1&a[]=2" (brackets, default) or "a=1&a=2" (repeat). */
  arrayFormat?: 'brackets' | 'repeat';
  /** Skip keys whose value is null or undefined (default true). */
  skipNulls?: boolean;
}
