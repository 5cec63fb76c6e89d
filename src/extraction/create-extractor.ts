import type { ExtractorConfig } from '../config.ts';
import { createDocumentAiExtractor } from './documentai/documentai.extractor.ts';
import type { DocumentExtractor } from './extractor.ts';
import { createLocalExtractor } from './local.extractor.ts';
import type { DocumentReader } from './reader.ts';

/** The configured provider (EXTRACTOR). Nothing remote is contacted or even loaded until the first document. */
export function createExtractor(config: ExtractorConfig, deps: { reader: DocumentReader }): DocumentExtractor {
  return config.kind === 'documentai' ? createDocumentAiExtractor(config) : createLocalExtractor(deps.reader);
}
