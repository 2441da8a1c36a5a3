'use strict';

const { parse, format, compare, sort } = require('./lib/version');
const { parseRange, satisfies, maxSatisfying } = require('./lib/range');

module.exports = { parse, format, compare, sort, parseRange, satisfies, maxSatisfying };
