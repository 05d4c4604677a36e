/** The hostile generator's raw material: the patterns an id must match, and the characters, words and values that poison one. */

export const GAME_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const TOURNAMENT_ID = /^t-[A-Za-z0-9_-]{1,64}$/;
export const WEBHOOK_ID = /^wh_[A-Za-z0-9_-]{16}$/;
/** A game kind the service knows (the test-only duel too). */
export const KIND = /^(backgammon|chicken-foot|cerke|duel)$/;
/** A client's move id or tournament command id. */
export const CLIENT_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/** Characters a name, seed or id must never hold: controls (C0, DEL, C1), lone surrogates, bidi overrides, line separators. */
export const REFUSED_CHARS = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\r',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\u202e',
  '\u202a',
  '\u2066',
  '\u2069',
  '\u2028',
  '\u2029',
];
/** Refused characters that no text record reads as a separator (a line break would only move the name). */
export const NAME_POISONS = REFUSED_CHARS.filter((c) => !/\s/u.test(c) && c !== '\u0085');
/** Odd but well-formed characters: they go into garbage, never into a poison that must be refused. */
export const ODD_CHARS = ['\ufeff', '\uffff', '\ufffe', '\u0301', '😀', '👩‍👩‍👧', '\u00a0', 'é', 'ß', '中', '"', "'", '\\', '/', '{', '}', '$', '%', '&', '?', '#', '|', '<', '>'];
export const WORDS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '../../etc/passwd',
  "' OR '1'='1",
  '"; DROP TABLE games; --',
  '\u0024{7*7}',
  '{{7*7}}',
  '%00',
  '%E2%80%AE',
  '\\u0000',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '1e309',
  '',
  ' ',
  'hub',
  '5-8',
  'ZO',
  'roll',
  'play',
  'duel',
  'cerke',
  'backgammon',
  'chicken-foot',
  'arb_',
  'AAAAAAAAAAAA',
];
export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];
export const KINDS = ['backgammon', 'chicken-foot', 'cerke'];

/** Negative, out-of-range, fractional and ill-typed values for Int arguments. */
export const ODD_NUMBERS: unknown[] = [-1, -5000, -2147483648, 2147483647, 2147483648, 9007199254740992, 1e308, -1e308, 0.5, 1e-7, 0, 1, 3, '5', 'NaN', 'Infinity', null, true, [], {}];
/** An expected version that every game refuses: negative, far ahead of any game, or not an Int. */
export const BAD_VERSIONS: unknown[] = [-1, -5000, -2147483648, 2147483647, 1_000_000, 2147483648, 1.5, '5', 'NaN', true, [], {}];
/** Values of other types where an id is expected. */
export const NOT_IDS: unknown[] = [0, -1, 1e308, true, null, [], {}];
