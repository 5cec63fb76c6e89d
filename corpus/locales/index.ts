import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { it } from './it.ts';
import { nl } from './nl.ts';
import { pt } from './pt.ts';
import type { Language, Locale } from './types.ts';

export const LOCALES: Record<Language, Locale> = { en, de, fr, es, it, nl, pt };
export { LANGUAGES } from './types.ts';
export type { Country, Language, Locale } from './types.ts';
