import type { Kysely } from 'kysely';
import { type BrandingChanges, type BrandingRow, findBranding, updateBranding } from './branding.queries.ts';
import type { DB } from '../../platform/db/types.ts';
import { InvalidInput, NotFound } from '../../platform/errors.ts';

/** The white label of the tenant pages, with the defaults filled in. */
export interface Branding {
  displayName: string;
  logoUrl: string | null;
  primaryColor: string;
  /** False while nothing was set (all defaults). */
  custom: boolean;
}

export interface BrandingInput {
  displayName?: string | null;
  logoUrl?: string | null;
  primaryColor?: string | null;
}

/** A neutral slate blue, readable with white text. */
export const DEFAULT_BRAND_COLOR = '#334e68';
const MAX_NAME = 100;
const MAX_LOGO = 100_000;
const COLOR = /^#[0-9a-f]{6}$/i;
// Raster formats and SVG; an SVG shown through <img> runs no script.
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/;

export function createBrandingService(db: Kysely<DB>) {
  return {
    async get(partnerId: string): Promise<Branding> {
      const row = await findBranding(db, partnerId);
      if (!row) throw new NotFound('partner');
      return toBranding(row);
    },

    /** Fields left out keep their value; null restores the default. */
    async set(partnerId: string, input: BrandingInput): Promise<Branding> {
      const row = await updateBranding(db, partnerId, brandingChanges(input));
      if (!row) throw new NotFound('partner');
      return toBranding(row);
    },
  };
}
export type BrandingService = ReturnType<typeof createBrandingService>;

function brandingChanges(input: BrandingInput): BrandingChanges {
  const changes: BrandingChanges = {};
  if (input.displayName !== undefined) {
    const name = input.displayName?.trim() ?? null;
    if (name !== null && (!name || name.length > MAX_NAME)) throw InvalidInput.field('displayName', `must be 1 to ${MAX_NAME} characters`);
    changes.brandName = name;
  }
  if (input.logoUrl !== undefined) changes.brandLogoUrl = input.logoUrl === null ? null : logoUrl(input.logoUrl.trim());
  if (input.primaryColor !== undefined) {
    const color = input.primaryColor?.trim() ?? null;
    if (color !== null && !COLOR.test(color)) throw InvalidInput.field('primaryColor', 'must be a colour #rrggbb');
    changes.brandColor = color?.toLowerCase() ?? null;
  }
  return changes;
}

function logoUrl(value: string): string {
  if (value.length > MAX_LOGO) throw InvalidInput.field('logoUrl', `must be at most ${MAX_LOGO} characters`);
  if (value.startsWith('data:')) {
    if (!DATA_IMAGE.test(value)) throw InvalidInput.field('logoUrl', 'must be a base64 data:image URL (png, jpeg, gif, webp or svg+xml)');
    return value;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw InvalidInput.field('logoUrl', 'must be an https URL or a data:image URL');
  }
  if (url.protocol !== 'https:' || url.username || url.password) throw InvalidInput.field('logoUrl', 'must be an https URL or a data:image URL');
  return url.href;
}

function toBranding(row: BrandingRow): Branding {
  return {
    displayName: row.brandName ?? row.partnerName,
    logoUrl: row.brandLogoUrl,
    primaryColor: row.brandColor ?? DEFAULT_BRAND_COLOR,
    custom: row.brandName !== null || row.brandLogoUrl !== null || row.brandColor !== null,
  };
}
