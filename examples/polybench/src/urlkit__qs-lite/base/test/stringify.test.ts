import { parse, stringify } from '../src';

describe('stringify', () => {
  it('encodes flat values', () => {
    expect(stringify({ q: 'a&b c', page: 2, exact: true })).toBe('q=a%26b%20c&page=2&exact=true');
  });

  it('encodes the characters encodeURIComponent leaves alone', () => {
    expect(stringify({ s: "it's (ok)!" })).toBe('s=it%27s%20%28ok%29%21');
  });

  it('writes arrays with brackets or repeated keys', () => {
    expect(stringify({ t: ['a', 'b'] })).toBe('t%5B%5D=a&t%5B%5D=b');
    expect(stringify({ t: ['a', 'b'] }, { arrayFormat: 'repeat' })).toBe('t=a&t=b');
  });

  it('skips nulls unless asked not to', () => {
    expect(stringify({ a: null, b: '1' })).toBe('b=1');
    expect(stringify({ a: null, b: '1' }, { skipNulls: false })).toBe('a=&b=1');
  });

  it('round-trips nested objects through parse', () => {
    const value = { user: { name: 'Ada Lovelace', langs: ['en', 'fr'] }, q: '50%' };
    expect(parse(stringify(value))).toEqual(value);
  });
});
