import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { enforceDeadlines } from '../platform/graphql/deadline.ts';
import { buildSubgraph } from '../platform/graphql/federation.ts';
import { resolvers } from './resolvers.ts';

// The SDL is spread over the domain modules (src/modules/<domain>/<domain>.graphql) plus the shared
// src/platform/graphql/common.graphql (scalars, Node, errors, serverTime); the REST contract stays in schema/.

const MODULES_DIR = fileURLToPath(new URL('../modules/', import.meta.url));
const COMMON_SDL = fileURLToPath(new URL('../platform/graphql/common.graphql', import.meta.url));
const OPENAPI_FILE = fileURLToPath(new URL('../../schema/openapi.yaml', import.meta.url));

/** Every SDL file: common.graphql first, then the modules' files in name order. */
export function loadTypeDefs(): string[] {
  const moduleFiles = readdirSync(MODULES_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(path.join(MODULES_DIR, d.name))
        .filter((f) => f.endsWith('.graphql'))
        .map((f) => path.join(MODULES_DIR, d.name, f)),
    )
    .sort((a, b) => path.basename(a).localeCompare(path.basename(b)));
  return [COMMON_SDL, ...moduleFiles].map((f) => readFileSync(f, 'utf8'));
}

/** The executable schema, a federation subgraph; every resolver of ours honours the request's execution deadline. */
export function buildSchema() {
  return enforceDeadlines(buildSubgraph(loadTypeDefs(), resolvers));
}

export function loadOpenApiDocument(): unknown {
  return parseYaml(readFileSync(OPENAPI_FILE, 'utf8'));
}
