// Fixture for testlog's Jest golden: nested describes, skip, todo, failure.
const clamp = (x, lo, hi) => Math.min(Math.max(x, lo), hi);

describe('clamp', () => {
  test('keeps values inside the range', () => {
    expect(clamp(5, 0, 10)).toBe(5);
  });
  test('raises values below the range', () => {
    expect(clamp(-3, 0, 10)).toBe(0);
  });
  describe('upper bound', () => {
    test('lowers values above the range', () => {
      expect(clamp(30, 0, 10)).toBe(10);
    });
    test('is exclusive (wrong on purpose)', () => {
      expect(clamp(10, 0, 10)).toBe(9);
    });
  });
  test.skip('handles NaN', () => {
    expect(clamp(NaN, 0, 1)).toBe(0);
  });
  test.todo('handles inverted bounds');
});

test('top-level test with -> arrow in its name', () => {
  expect(1 + 1).toBe(2);
});
