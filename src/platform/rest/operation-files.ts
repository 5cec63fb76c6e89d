import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Stored operations live with their domain: src/modules/<domain>/operations/<Name>.graphql (the file name is the
// operation's name, unique across modules); the shared resource fragments are ./fragments.graphql.

const MODULES_DIR = fileURLToPath(new URL('../../modules/', import.meta.url));
let index: Map<string, string> | undefined;

/** The file of the stored operation `name`; throws when no module holds it. */
export function storedOperationFile(name: string): string {
  if (!index) {
    index = new Map();
    for (const domain of readdirSync(MODULES_DIR)) {
      const dir = path.join(MODULES_DIR, domain, 'operations');
      if (!existsSync(dir)) continue;
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.graphql'))) {
        const op = file.slice(0, -'.graphql'.length);
        if (index.has(op)) throw new Error(`stored operation ${op} is defined twice (${index.get(op)}, ${path.join(dir, file)})`);
        index.set(op, path.join(dir, file));
      }
    }
  }
  const file = index.get(name);
  if (!file) throw new Error(`no stored operation ${name}.graphql under src/modules/*/operations/`);
  return file;
}
