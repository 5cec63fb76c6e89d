// The committed weights of a learned scorer (./weights/<field>.json, written by `npm run train`), read once.
import { readFileSync } from 'node:fs';
import { checkModel, type RankingModel } from './model.ts';

const models = new Map<string, RankingModel>();

export function loadModel(field: string, features: readonly string[]): RankingModel {
  let m = models.get(field);
  if (!m) {
    m = checkModel(JSON.parse(readFileSync(new URL(`./weights/${field}.json`, import.meta.url), 'utf8')) as RankingModel, features);
    models.set(field, m);
  }
  return m;
}
