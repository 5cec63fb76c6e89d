// Entry files of worker threads and child processes, found next to the module that starts them. Under tsx and vitest
// the sources run as .ts; from the build (`npm run build` → dist/) they are .js, and no TypeScript loader is present.

/** True when `moduleUrl` (an `import.meta.url`) is a TypeScript source, false when it runs from the build. */
export function isTypeScriptModule(moduleUrl: string): boolean {
  return moduleUrl.endsWith('.ts');
}

/** The sibling module `name` (no extension) with the extension the caller itself runs with. */
export function siblingModule(name: string, moduleUrl: string): URL {
  return new URL(`${name}${isTypeScriptModule(moduleUrl) ? '.ts' : '.js'}`, moduleUrl);
}
