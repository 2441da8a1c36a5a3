import { decodeComponent as decode } from './encoding';
import { ParseOptions, QueryObject, QueryValue } from './types';

/** Splits "a[b][]" into ["a", "b", ""], keeping at most depth bracket segments. */
export function splitKey(key: string, depth: number): string[] {
  const open = key.indexOf('[');
  if (open <= 0) return [key];
  const segments = [key.slice(0, open)];
  const re = /\[([^\[\]]*)\]/g;
  re.lastIndex = open;
  let m: RegExpExecArray | null;
  let end = open;
  while ((m = re.exec(key)) !== null && m.index === end) {
    if (segments.length > depth) break;
    segments.push(m[1]);
    end = re.lastIndex;
  }
  if (end < key.length) segments.push(key.slice(end));
  return segments;
}

function assign(target: QueryObject | QueryValue[], path: string[], value: string): void {
  const [head, ...rest] = path;
  if (Array.isArray(target)) {
    if (rest.length === 0) {
      target.push(value);
      return;
    }
    const child: QueryObject = {};
    target.push(child);
    assign(child, rest, value);
    return;
  }
  if (rest.length === 0) {
    const existing = target[head];
    if (existing === undefined) target[head] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else target[head] = [existing, value];
    return;
  }
  const wantArray = rest[0] === '';
  let child = target[head];
  if (child === undefined || typeof child === 'string') {
    child = wantArray ? [] : {};
    target[head] = child;
  }
  assign(child as QueryObject | QueryValue[], rest, value);
}

/**
 * Parses a query string ("?a=1&b[c]=2", with or without the leading "?")
 * into an object. Repeated keys collect into arrays.
 */
export function parse(query: string, options: ParseOptions = {}): QueryObject {
  const depth = options.depth ?? 5;
  const limit = options.parameterLimit ?? 1000;
  const out: QueryObject = {};
  const text = query.startsWith('?') ? query.slice(1) : query;
  if (!text) return out;
  const pairs = text.split('&').slice(0, limit);
  for (const pair of pairs) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawKey = eq === -1 ? pair : pair.slice(0, eq);
    const rawValue = eq === -1 ? '' : pair.slice(eq + 1);
    const key = decode(rawKey);
    if (!key) continue;
    assign(out, splitKey(key, depth), decode(rawValue));
  }
  return out;
}
