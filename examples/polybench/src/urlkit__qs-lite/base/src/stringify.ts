import { StringifyOptions } from './types';

type Input = string | number | boolean | null | undefined | Input[] | { [key: string]: Input };

function encode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

function walk(prefix: string, value: Input, opts: Required<StringifyOptions>, out: string[]): void {
  if (value === null || value === undefined) {
    if (!opts.skipNulls) out.push(encode(prefix) + '=');
    return;
  }
  if (Array.isArray(value)) {
    const key = opts.arrayFormat === 'brackets' ? prefix + '[]' : prefix;
    for (const item of value) {
      if (item !== null && typeof item === 'object') {
        walk(prefix + '[]', item, opts, out);
      } else {
        walk(key, item, opts, out);
      }
    }
    return;
  }
  if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      walk(prefix ? `${prefix}[${k}]` : k, v, opts, out);
    }
    return;
  }
  out.push(encode(prefix) + '=' + encode(String(value)));
}

/** Formats an object as a query string (without a leading "?"). */
export function stringify(obj: { [key: string]: Input }, options: StringifyOptions = {}): string {
  const opts: Required<StringifyOptions> = {
    arrayFormat: options.arrayFormat ?? 'brackets',
    skipNulls: options.skipNulls ?? true,
  };
  const out: string[] = [];
  walk('', obj, opts, out);
  return out.join('&');
}
