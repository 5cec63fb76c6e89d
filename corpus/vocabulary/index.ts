// The corpus's own label vocabulary, per language (./types.ts says what it is and why it is kept apart).
import type { Language } from '../locales/types.ts';
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { it } from './it.ts';
import { nl } from './nl.ts';
import { pt } from './pt.ts';
import type { Vocabulary } from './types.ts';

export const VOCABULARIES: Record<Language, Vocabulary> = { en, de, fr, es, it, nl, pt };
export { KEY_LABELS, OTHER_LABELS } from './types.ts';
export type { KeyLabel, OtherLabel, Vocabulary } from './types.ts';
