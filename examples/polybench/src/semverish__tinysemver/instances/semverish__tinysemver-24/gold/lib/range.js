'use strict';

const { parse, compare } = require('./version');

const OPS = ['>=', '<=', '>', '<', '='];

/** Expands one partial version ("1", "1.2", "1.x", "*") into [lower, upper) comparators. */
function expandPartial(text) {
  const parts = text.replace(/^v/, '').split('.');
  const nums = [];
  for (const p of parts) {
    if (p === 'x' || p === 'X' || p === '*') break;
    if (!/^(0|[1-9]\d*)$/.test(p)) throw new TypeError(`invalid version in range: ${text}`);
    nums.push(Number(p));
  }
  if (nums.length === 0) return [];
  if (nums.length === 1) return [['>=', `${nums[0]}.0.0`], ['<', `${nums[0] + 1}.0.0`]];
  if (nums.length === 2) return [['>=', `${nums[0]}.${nums[1]}.0`], ['<', `${nums[0]}.${nums[1] + 1}.0`]];
  return null;
}

/** "~1.2.3" allows patch-level changes: >=1.2.3 <1.3.0. */
function expandTilde(text) {
  const v = parse(text);
  return [['>=', text], ['<', `${v.major}.${v.minor + 1}.0`]];
}

/**
 * "^1.2.3" allows changes that do not modify the left-most non-zero part:
 * >=1.2.3 <2.0.0; "^0.2.3" means <0.3.0 and "^0.0.3" means <0.0.4.
 */
function expandCaret(text) {
  const v = parse(text);
  let upper;
  if (v.major > 0) upper = `${v.major + 1}.0.0`;
  else if (v.minor > 0) upper = `0.${v.minor + 1}.0`;
  else upper = `0.0.${v.patch + 1}`;
  return [['>=', text], ['<', upper]];
}

function parseComparator(token) {
  if (token.startsWith('~')) return expandTilde(token.slice(1));
  if (token.startsWith('^')) return expandCaret(token.slice(1));
  const op = OPS.find((o) => token.startsWith(o)) || '=';
  const rest = token.slice(op === '=' && !token.startsWith('=') ? 0 : op.length);
  const partial = op === '=' ? expandPartial(rest) : null;
  if (partial) return partial;
  return [[op, parse(rest)]];
}

/**
 * Parses a range: comparator sets separated by "||", each a space-separated
 * list of comparators (">=1.2.0 <2.0.0", "1.x", "~1.2.3", "^1.2.3", "*").
 * Returns an array of sets, each an array of [operator, version] pairs.
 */
function parseRange(range) {
  return range.split('||').map((set) => {
    const tokens = set.trim().split(/\s+/).filter(Boolean);
    return tokens.flatMap(parseComparator).map(([op, v]) => [op, typeof v === 'string' ? parse(v) : v]);
  });
}

function test(op, version, bound) {
  const c = compare(version, bound);
  switch (op) {
    case '>=': return c >= 0;
    case '<=': return c <= 0;
    case '>': return c > 0;
    case '<': return c < 0;
    default: return c === 0;
  }
}

/** Whether version satisfies any comparator set of range. Invalid versions never do. */
function satisfies(version, range) {
  let v;
  try {
    v = parse(version);
  } catch (e) {
    return false;
  }
  return parseRange(range).some((set) => set.every(([op, bound]) => test(op, v, bound)));
}

/** The highest of versions that satisfies range, or null. */
function maxSatisfying(versions, range) {
  const ok = versions.filter((v) => satisfies(v, range));
  if (!ok.length) return null;
  return ok.reduce((best, v) => (compare(v, best) > 0 ? v : best));
}

module.exports = { parseRange, satisfies, maxSatisfying };
