// Sellers and buyers: a legal name with the country's legal form, an address with a country line, tax id, phone,
// e-mail, web, bank details and the registration line a footer carries.

import { bankDetails } from './locales/countries.ts';
import type { Country, Language, Locale } from './locales/types.ts';
import type { Rng } from './random.ts';

export interface Party {
  /** The legal name, legal form included: the ground truth `vendorName` of a seller. */
  name: string;
  /** The name without its legal form (what a logo would show). */
  brand: string;
  street: string;
  cityLine: string;
  country: Country;
  vatId: string;
  phone: string;
  email: string;
  web: string;
  contact: string;
  bank: { bank: string; iban: string; bic: string };
  register: string;
  director: string;
}

/** Restaurants and hotels: the usual buyers of a restaurant group's suppliers. */
const VENUES: Record<Language, readonly string[]> = {
  en: ['The {brand} Kitchen', '{brand} Bistro', 'Harbour View Hotel', 'The Old {last} Inn', '{last} Catering'],
  de: ['Restaurant {brand}', 'Gasthaus Zum Löwen', 'Hotel {brand}', 'Café {last}', 'Brauhaus {brand}'],
  fr: ['Restaurant Le {brand}', 'Brasserie du Port', 'Hôtel {brand}', 'Café de la Gare', 'Bistrot {last}'],
  es: ['Restaurante {brand}', 'Taberna {last}', 'Hotel {brand}', 'Cafetería Central', 'Bar {brand}'],
  it: ['Ristorante {brand}', 'Trattoria da {first}', 'Hotel {brand}', 'Osteria {last}', 'Pizzeria {brand}'],
  nl: ['Restaurant {brand}', 'Eetcafé De Hoek', 'Hotel {brand}', 'Brasserie {last}', 'Grand Café {brand}'],
  pt: ['Restaurante {brand}', 'Tasca do {first}', 'Hotel {brand}', 'Café {brand}', 'Marisqueira {last}'],
};

const MAILBOXES: Record<Language, readonly string[]> = {
  en: ['info', 'accounts', 'billing', 'sales', 'office'],
  de: ['info', 'rechnung', 'buchhaltung', 'kontakt', 'office'],
  fr: ['contact', 'factures', 'comptabilite', 'info', 'commercial'],
  es: ['info', 'administracion', 'facturas', 'contabilidad', 'pedidos'],
  it: ['info', 'amministrazione', 'fatture', 'ordini', 'contabilita'],
  nl: ['info', 'administratie', 'facturen', 'verkoop', 'contact'],
  pt: ['geral', 'faturacao', 'info', 'contabilidade', 'encomendas'],
};

const slug = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' ')
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, 24)
    .replace(/^-+|-+$/g, '');

function fill(rng: Rng, pattern: string, loc: Locale, city: string): string {
  const last = rng.pick(loc.lastNames);
  return pattern
    .replace('{last2}', rng.pick(loc.lastNames.filter((n) => n !== last)))
    .replace('{last}', last)
    .replace('{first}', rng.pick(loc.firstNames))
    .replace('{trade}', rng.pick(loc.trades))
    .replace('{brand}', rng.pick(loc.brands))
    .replace('{city}', city.replace(/[,(-].*$/, '').trim());
}

export function makeParty(rng: Rng, loc: Locale, country: Country, role: 'seller' | 'buyer'): Party {
  const city = rng.pick(country.cities);
  const brand = role === 'buyer' && rng.chance(0.6) ? fill(rng, rng.pick(VENUES[loc.language]), loc, city) : fill(rng, rng.pick(loc.namePatterns), loc, city);
  const form = rng.pick(country.legalForms);
  // French and Portuguese firms often put the form first ("SARL Dupont Traiteur"); a buyer may have none (a sole trader).
  const name = role === 'buyer' && rng.chance(0.25) ? brand : country.code === 'FR' && rng.chance(0.2) ? `${form} ${brand}` : `${brand} ${form}`;
  const domain = `${slug(brand)}.${country.tld}`;
  const person = `${rng.pick(loc.firstNames)} ${rng.pick(loc.lastNames)}`;
  const mailbox = rng.pick(MAILBOXES[loc.language]);
  return {
    name,
    brand,
    street: country.street(rng, rng.pick(loc.streets)),
    cityLine: country.cityLine(rng, city),
    country,
    vatId: country.vatId(rng),
    phone: country.phone(rng),
    email: `${mailbox}@${domain}`,
    web: `www.${domain}`,
    contact: person,
    bank: bankDetails(rng, country),
    register: country.register(rng, city.replace(/[,(-].*$/, '').trim()),
    director: `${rng.pick(loc.firstNames)} ${rng.pick(loc.lastNames)}`,
  };
}
