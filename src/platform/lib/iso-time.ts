// What Date's toISOString writes ('2026-11-27T23:25:22.126Z'), computed from the time value with integer arithmetic:
// ~0.18 µs instead of ~0.56 µs. Every DateTime in a GraphQL result is written this way (a 35-item inventory list
// holds 70), so it was ~5% of a REST read's event-loop time. Days from the epoch to a civil date follow Howard
// Hinnant's days_from_civil inverse (proleptic Gregorian, as ECMAScript's Date).

const TWO_DIGITS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const DAY_MS = 86_400_000;
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
  const millis = time % 1000;
  return (
    `${TWO_DIGITS[Math.floor(year / 100)]}${TWO_DIGITS[year % 100]}-${TWO_DIGITS[month]}-${TWO_DIGITS[day]}` +
    `T${TWO_DIGITS[Math.floor(time / 3_600_000)]}:${TWO_DIGITS[Math.floor(time / 60_000) % 60]}:${TWO_DIGITS[Math.floor(time / 1000) % 60]}` +
    `.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`
  );
}
