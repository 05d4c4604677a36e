/** Pekzep numerals as cerke_online writes points (docs/rules/cerke.md §16.4) and CKKA reads them. */

const DIGITS = ['無', '一', '二', '三', '四', '五', '六', '七', '八', '九'];
const NONZERO = '一二三四五六七八九';

/** 1-99: [tens digit if ≥ 2] 十 [ones digit]; `elide` drops 十 where keeping it makes three characters. */
function upTo99(n: number, elide: boolean): string {
  const tens = Math.floor(n / 10);
  const ones = n % 10;
  if (tens === 0) return DIGITS[ones];
  if (elide && tens >= 2 && ones !== 0) return DIGITS[tens] + DIGITS[ones];
  return (tens >= 2 ? DIGITS[tens] : '') + '十' + (ones ? DIGITS[ones] : '');
}

export function toPekzepNumeral(n: number): string {
  if (n < 0) return '下' + toPekzepNumeral(-n);
  if (n === 0) return '無';
  if (n < 100) return upTo99(n, false);
  if (n < 200) return '百' + (n === 100 ? '' : upTo99(n - 100, false));
  const hundreds = Math.floor(n / 100);
  const rest = n % 100;
  return upTo99(hundreds, true) + '百' + (rest ? upTo99(rest, true) : '');
}

/** 1-99 with or without the middle 十; null when the text is not such a number. */
function readUpTo99(text: string): number | null {
  const ten = text.indexOf('十');
  if (ten < 0) {
    if (text.length === 1 && NONZERO.includes(text)) return DIGITS.indexOf(text);
    if (text.length === 2 && '二三四五六七八九'.includes(text[0]) && NONZERO.includes(text[1])) return DIGITS.indexOf(text[0]) * 10 + DIGITS.indexOf(text[1]);
    return null;
  }
  const before = text.slice(0, ten);
  const after = text.slice(ten + 1);
  if (before.length > 1 || after.length > 1) return null;
  if (before && !'二三四五六七八九'.includes(before)) return null;
  if (after && !NONZERO.includes(after)) return null;
  return (before ? DIGITS.indexOf(before) : 1) * 10 + (after ? DIGITS.indexOf(after) : 0);
}

/** Below 10 000: [1-99] 百 [1-99], each part optional around 百. */
function readBelow10000(text: string): number | null {
  const hundred = text.indexOf('百');
  if (hundred < 0) return readUpTo99(text);
  const head = text.slice(0, hundred);
  const tail = text.slice(hundred + 1);
  const hundreds = head ? readUpTo99(head) : 1;
  const rest = tail ? readUpTo99(tail) : 0;
  return hundreds === null || rest === null ? null : hundreds * 100 + rest;
}

/** Reads a Pekzep numeral (with 下 for minus, 万 and 億 as CKKA allows) or Arabic digits; null if malformed. */
export function readPekzepNumeral(text: string): number | null {
  if (/^-?[0-9]+$/.test(text)) return Number(text);
  if (text.startsWith('下')) {
    const n = readPekzepNumeral(text.slice(1));
    return n === null || n <= 0 ? null : -n;
  }
  if (text === '無') return 0;
  if (text === '') return null;
  for (const [unit, size] of [
    ['億', 1e8],
    ['万', 1e4],
  ] as const) {
    const at = text.indexOf(unit);
    if (at < 0) continue;
    const head = at === 0 ? 1 : readBelow10000(text.slice(0, at));
    const tail = at === text.length - 1 ? 0 : readPekzepNumeral(text.slice(at + 1));
    return head === null || tail === null || tail < 0 || tail >= size ? null : head * size + tail;
  }
  return readBelow10000(text);
}
