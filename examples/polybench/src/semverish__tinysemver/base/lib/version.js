'use strict';

// SemVer 2.0.0: MAJOR.MINOR.PATCH, optional -prerelease and +build.
const VERSION_RE = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/;

/**
 * Parses a version string. Throws a TypeError for anything that is not a
 * valid semantic version. A leading "v" is accepted.
 */
function parse(text) {
  if (typeof text !== 'string') {
    throw new TypeError(`version must be a string, got ${typeof text}`);
  }
  const m = VERSION_RE.exec(text.trim());
  if (!m) {
    throw new TypeError(`invalid version: ${JSON.stringify(text)}`);
  }
  return {
    major: Number(m[1]),
    minor: Number(m[2]),
    patch: Number(m[3]),
    prerelease: m[4] ? m[4].split('.') : [],
    build: m[5] ? m[5].split('.') : [],
  };
}

/** The canonical text of a parsed version (without a "v" prefix). */
function format(v) {
  let out = `${v.major}.${v.minor}.${v.patch}`;
  if (v.prerelease.length) out += `-${v.prerelease.join('.')}`;
  if (v.build.length) out += `+${v.build.join('.')}`;
  return out;
}

function toVersion(x) {
  return typeof x === 'string' ? parse(x) : x;
}

function comparePrerelease(a, b) {
  // A version without prerelease has higher precedence than one with.
  if (!a.length && !b.length) return 0;
  if (!a.length) return 1;
  if (!b.length) return -1;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) continue;
    return a[i] < b[i] ? -1 : 1;
  }
  return Math.sign(a.length - b.length);
}

/**
 * Compares two versions (strings or parsed) by SemVer precedence: -1, 0 or 1.
 * Build metadata is ignored.
 */
function compare(a, b) {
  const x = toVersion(a);
  const y = toVersion(b);
  for (const key of ['major', 'minor', 'patch']) {
    if (x[key] !== y[key]) return x[key] < y[key] ? -1 : 1;
  }
  return comparePrerelease(x.prerelease, y.prerelease);
}

/** A new array of the versions in ascending precedence (stable for equal ones). */
function sort(versions) {
  return versions.slice().sort(compare);
}

module.exports = { parse, format, compare, sort, comparePrerelease };
