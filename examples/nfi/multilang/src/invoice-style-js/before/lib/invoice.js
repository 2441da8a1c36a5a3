'use strict';

/**
 * Invoice arithmetic in integer cents: lines, tax bands and totals.
 */

/**
 * Returns the tax rate, in percent, of a tax band name.
 * @param {string} band "standard", "reduced" or "zero".
 * @returns {number} the rate in percent.
 */
function taxRate(band) {
  return band === 'standard' ? 20 : band === 'reduced' ? 5 : 0;
}

/**
 * Returns the net amount of one line in cents: quantity times unit price,
 * less the line's discount in percent (rounded half up to a cent).
 * @param {{quantity: number, unitCents: number, discount?: number}} line
 * @returns {number} cents.
 */
function lineNet(line) {
  var gross = line.quantity * line.unitCents;
  var discount = 0;
  if (line.discount) {
    discount = Math.round((gross * line.discount) / 100);
  }
  return gross - discount;
}

/**
 * Totals an invoice: net, tax and gross in cents, and the number of
 * lines per tax band.
 * @param {Array<{quantity: number, unitCents: number, discount?: number, band: string}>} lines
 * @returns {{net: number, tax: number, gross: number, bands: Object<string, number>}}
 */
function totals(lines) {
  var net, tax;
  net = tax = 0;
  var bands = {};
  for (var i = 0; i < lines.length; i++) {
    var n = lineNet(lines[i]);
    net += n;
    tax += Math.round((n * taxRate(lines[i].band)) / 100);
    if (bands[lines[i].band] === undefined) {
      bands[lines[i].band] = 0;
    }
    bands[lines[i].band]++;
  }
  return { net: net, tax: tax, gross: net + tax, bands: bands };
}

/**
 * Formats cents as a decimal amount with two digits ("12.05", "-0.40").
 * @param {number} cents
 * @returns {string}
 */
function formatCents(cents) {
  var sign = '';
  if (cents < 0) {
    sign = '-';
  } else {
    if (cents === 0) {
      return '0.00';
    }
  }
  var abs = Math.abs(cents);
  var units = Math.floor(abs / 100);
  var rest = abs % 100;
  return sign + units + '.' + (rest < 10 ? '0' + rest : String(rest));
}

module.exports = { taxRate, lineNet, totals, formatCents };
