// A merchant's name checked against its own web or e-mail address printed on the slip ("LANTERH PRINTWORKS" beside
// "lanternprintworks@…"): one letter OCR misread, lost or added in the name is put back as the address spells it.
import { stripAccents } from './dates.ts';

/** A web or e-mail address: dotted words ending in a common top-level domain (OCR may have lost the "@"). */
const WEB_ADDRESS = /[\p{L}\d][\p{L}\d.@_-]*\.(?:com|net|org|biz|info|co|my|lv|de|fr|uk|sg|eu)\b/giu;
/** Parts of an address that are no one's name. */
const NOT_NAME_PART = /^(?:www|http|https|mail|email|info|sales|admin|enquiry|contact|gmail|yahoo|hotmail|outlook)$/;

/** The lower-case, unaccented letters and digits of a name, and where each stands in it. */
function letters(name: string): { text: string; at: number[] } {
  let text = '';
  const at: number[] = [];
  [...name].forEach((ch, i) => {
    const plain = stripAccents(ch).toLowerCase();
    if (/^[a-z\d]$/.test(plain)) {
      text += plain;
      at.push(i);
    }
  });
  return { text, at };
}

/**
 * The one edit (a letter changed, put in, or taken out at `k`) that makes `name` the start of `word`, if any; with two
 * letters of the name after it that the word spells too, so that a name is not bent into a longer word ("MIDVALE"
 * is not "midvall…").
 */
function oneEdit(name: string, word: string): { k: number; op: 'change' | 'insert' | 'delete' } | null {
  if (word.startsWith(name)) return null;
  let k = 0;
  while (k < name.length && name[k] === word[k]) k++;
  if (k + 2 >= name.length) return null;
  if (word.startsWith(name.slice(0, k) + word[k] + name.slice(k + 1))) return { k, op: 'change' };
  // Never a letter put before the name: addresses add prefixes of their own ("my", "e", "shop").
  if (k > 0 && word.startsWith(name.slice(0, k) + word[k] + name.slice(k))) return { k, op: 'insert' };
  if (word.startsWith(name.slice(0, k) + name.slice(k + 1))) return { k, op: 'delete' };
  return null;
}

/**
 * The name with one letter mended from an address on the slip that starts with its letters but for that one
 * ("lanterhprintworks" → "lanternprintworks…"): its leading words, longest first, from its first or second word (an
 * address often spells a name without its legal form: SIA "…", "… SDN BHD"). Runs of fewer than 6 letters, or that
 * an address already spells, stay.
 */
export function mendFromAddress(name: string, text: string): string {
  const parts = [...text.matchAll(WEB_ADDRESS)].flatMap((m) =>
    stripAccents(m[0])
      .toLowerCase()
      .split(/[@._-]/),
  );
  const words = parts.filter((p) => p.length >= 6 && !NOT_NAME_PART.test(p));
  if (!words.length) return name;
  const chars = [...name];
  const { text: own, at } = letters(name);
  // Letter indexes where the name's words start and end.
  const wordStarts = [...name.matchAll(/(?<![\p{L}\d])[\p{L}\d]/gu)].map((m) => at.indexOf([...name.slice(0, m.index)].length));
  const wordEnds = [...name.matchAll(/[\p{L}\d](?![\p{L}\d])/gu)].map((m) => at.indexOf([...name.slice(0, m.index)].length) + 1).reverse();
  for (const from of wordStarts.slice(0, 2)) {
    for (const to of wordEnds) {
      const run = own.slice(from, to);
      if (run.length < 6) break;
      if (words.some((w) => w.startsWith(run))) return name;
      for (const word of words) {
        const edit = oneEdit(run, word);
        if (!edit) continue;
        const k = from + edit.k;
        const pos = k < at.length ? at[k]! : at.at(-1)! + 1;
        const near = chars[pos] ?? chars[pos - 1] ?? '';
        const letter = near === near.toLowerCase() ? word[edit.k]! : word[edit.k]!.toUpperCase();
        if (edit.op === 'change') chars.splice(pos, 1, letter);
        else if (edit.op === 'insert') chars.splice(pos, 0, letter);
        else chars.splice(pos, 1);
        return chars.join('');
      }
    }
  }
  return name;
}
