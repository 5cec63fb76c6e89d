// What Date's toISOString writes ('2026-11-27T23:25:22.126Z'), computed from the time value with integer arithmetic:
// ~0.18 µs instead of ~0.56 µs. Every DateTime in a GraphQL result is written this way (a 35-item inventory list
// holds 70), so it was ~5% of a REST read's event-loop time. Days from the epoch to a civil date follow Howard
// Hinnant's days_from_civil inverse (proleptic Gregorian, as ECMAScript's Date). The 24 characters are made in one
// String.fromCharCode call: a string concatenated from pieces is a tree of V8 cons strings (~15 allocations), which
// JSON.stringify then has to flatten into one more — 23 µs of the 103 µs that stringifying the 35-item REST body took.

const DAY_MS = 86_400_000;
const [DASH, T, COLON, DOT, Z] = [0x2d, 0x54, 0x3a, 0x2e, 0x5a];
/** 10000-01-01T00:00:00Z: later (and pre-1970) instants are left to toISOString (six-digit or signed years). */
const YEAR_10000 = 253_402_300_800_000;

export function isoTime(date: Date): string {
  const ms = date.getTime();
  if (!(ms >= 0 && ms < YEAR_10000)) return date.toISOString(); // also throws on an invalid Date, as toISOString does
  const time = ms % DAY_MS;
  const days = (ms - time) / DAY_MS + 719_468; // days since 0000-03-01
  const era = Math.floor(days / 146_097);
  const dayOfEra = days - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153); // 0 = March
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(time / 3_600_000);
  const minutes = Math.floor(time / 60_000) % 60;
  const seconds = Math.floor(time / 1000) % 60;
  const millis = time % 1000;
  // prettier-ignore
  return String.fromCharCode(
    digit(year / 1000), digit(year / 100), digit(year / 10), digit(year), DASH, digit(month / 10), digit(month), DASH, digit(day / 10), digit(day),
    T, digit(hours / 10), digit(hours), COLON, digit(minutes / 10), digit(minutes), COLON, digit(seconds / 10), digit(seconds),
    DOT, digit(millis / 100), digit(millis / 10), digit(millis), Z,
  );
}

/** The character code of the last decimal digit of the integer part of `n` (n ≥ 0). */
function digit(n: number): number {
  return 0x30 + (Math.floor(n) % 10);
}
