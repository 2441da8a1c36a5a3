'use strict';

const test = require('node:test');
const assert = require('node:assert');
const { taxRate, lineNet, totals, formatCents } = require('../lib/invoice.js');

test('tax rates of the three bands', () => {
  assert.strictEqual(taxRate('standard'), 20);
  assert.strictEqual(taxRate('reduced'), 5);
  assert.strictEqual(taxRate('zero'), 0);
  assert.strictEqual(taxRate('unknown'), 0);
});

test('line net with and without a discount', () => {
  assert.strictEqual(lineNet({ quantity: 3, unitCents: 250 }), 750);
  assert.strictEqual(lineNet({ quantity: 1, unitCents: 999, discount: 10 }), 899);
  assert.strictEqual(lineNet({ quantity: 2, unitCents: 5, discount: 15 }), 8);
});

test('totals count lines per band', () => {
  const t = totals([
    { quantity: 2, unitCents: 1000, band: 'standard' },
    { quantity: 1, unitCents: 300, band: 'reduced', discount: 50 },
    { quantity: 4, unitCents: 125, band: 'standard' },
    { quantity: 1, unitCents: 80, band: 'zero' },
  ]);
  assert.deepStrictEqual(t, { net: 2730, tax: 508, gross: 3238, bands: { standard: 2, reduced: 1, zero: 1 } });
});

test('totals of no line', () => {
  assert.deepStrictEqual(totals([]), { net: 0, tax: 0, gross: 0, bands: {} });
});

test('formats cents', () => {
  assert.strictEqual(formatCents(0), '0.00');
  assert.strictEqual(formatCents(1205), '12.05');
  assert.strictEqual(formatCents(-40), '-0.40');
  assert.strictEqual(formatCents(100000), '1000.00');
  assert.strictEqual(formatCents(7), '0.07');
});
