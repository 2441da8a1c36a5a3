import { decodeComponent, encodeComponent, parse, stringify } from '../src';

describe('encodeComponent', () => {
  it('escapes reserved characters including !\'()*', () => {
    expect(encodeComponent("a b&c=d!'()*")).toBe('a%20b%26c%3Dd%21%27%28%29%2A');
  });

  it('leaves unreserved characters alone', () => {
    expect(encodeComponent('AZaz09-_.~')).toBe('AZaz09-_.~');
  });
});

describe('decodeComponent', () => {
  it('decodes UTF-8 escapes', () => {
    expect(decodeComponent('caf%C3%A9')).toBe('café');
  });

  it('returns malformed text unchanged instead of throwing', () => {
    expect(decodeComponent('%E0%A4%A')).toBe('%E0%A4%A');
  });
});

describe('encoding round trip', () => {
  it('parse reads back what stringify writes for awkward text', () => {
    const value = { 'k*(1)': "it's 100% (ok)!" };
    expect(parse(stringify(value))).toEqual(value);
  });
});
