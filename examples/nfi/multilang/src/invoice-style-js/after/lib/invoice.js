'use strict';

/**
 * Invoice arithmetic in integer cents: lines, tax bands and totals.
 */

const RATES = { standard: 20, reduced: 5 };

/**
 * Returns the tax rate, in percent, of a tax band name.
 * @param {string} band "standard", "reduced" or "zero".
 * @returns {number} the rate in percent.
 */
function taxRate(band) {
  return Object.hasOwn(RATES, band) ? RATES[band] : 0;
}

/**
 * Returns the net amount of one line in cents: quantity times unit price,
 * less the line's discount in percent (rounded half up to a cent).
 * @param {{quantity: number, unitCents: number, discount?: number}} line
 * @returns {number} cents.
 */
function lineNet(line) {
  const gross = line.quantity * line.unitCents;
  const discount = line.discount ? Math.round((gross * line.discount) / 100) : 0;
  return gross - discount;
}

/**
 * Totals an invoice: net, tax and gross in cents, and the number of
 * lines per tax band.
 * @param {Array<{quantity: number, unitCents: number, discount?: number, band: string}>} lines
 * @returns {{net: number, tax: number, gross: number, bands: Object<string, number>}}
 */
function totals(lines) {
  let net = 0;
  let tax = 0;
  const bands = {};
  for (const line of lines) {
    const n = lineNet(line);
    net += n;
    tax += Math.round((n * taxRate(line.band)) / 100);
    bands[line.band] = (bands[line.band] ?? 0) + 1;
  }
  return { net, tax, gross: net + tax, bands };
}

/**
 * Formats cents as a decimal amount with two digits ("12.05", "-0.40").
 * @param {number} cents
 * @returns {string}
 */
function formatCents(cents) {
  if (cents === 0) {
    return '0.00';
  }
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const units = Math.floor(abs / 100);
  const rest = String(abs % 100).padStart(2, '0');
  return `${sign}${units}.${rest}`;
}

module.exports = { taxRate, lineNet, totals, formatCents };
