import { parse, splitKey } from '../src';

describe('parse', () => {
  it('reads flat pairs with or without a leading ?', () => {
    expect(parse('?a=1&b=two')).toEqual({ a: '1', b: 'two' });
    expect(parse('a=1')).toEqual({ a: '1' });
  });

  it('decodes percent-encoding', () => {
    expect(parse('q=caf%C3%A9%20au%20lait&%24k=v')).toEqual({ q: 'café au lait', $k: 'v' });
  });

  it('keeps malformed escapes as they are', () => {
    expect(parse('bad=%E0%A4%A')).toEqual({ bad: '%E0%A4%A' });
  });

  it('collects repeated keys into arrays', () => {
    expect(parse('t=a&t=b&t=c')).toEqual({ t: ['a', 'b', 'c'] });
  });

  it('reads brackets as arrays and nested objects', () => {
    expect(parse('tags[]=x&tags[]=y&user[name]=Ada&user[langs][]=en')).toEqual({
      tags: ['x', 'y'],
      user: { name: 'Ada', langs: ['en'] },
    });
  });

  it('treats keys without = as empty values', () => {
    expect(parse('flag&x=1')).toEqual({ flag: '', x: '1' });
  });

  it('stops at the parameter limit', () => {
    expect(parse('a=1&b=2&c=3', { parameterLimit: 2 })).toEqual({ a: '1', b: '2' });
  });
});

describe('splitKey', () => {
  it('splits bracket segments', () => {
    expect(splitKey('a[b][]', 5)).toEqual(['a', 'b', '']);
  });

  it('keeps segments past the depth in the last key', () => {
    expect(splitKey('a[b][c][d]', 1)).toEqual(['a', 'b', '[c][d]']);
  });
});
