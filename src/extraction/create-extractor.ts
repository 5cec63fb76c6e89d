import type { ExtractorConfig } from '../platform/config.ts';
import { createDocumentAiExtractor } from './documentai/documentai.extractor.ts';
import type { DocumentExtractor } from './extractor.ts';
import { createLocalExtractor } from './local.extractor.ts';
import type { DocumentReader } from './reader.ts';

/**
 * The configured provider (EXTRACTOR). Nothing remote is contacted or even loaded until the first document.
 * An uploaded e-invoice XML file is read by the local engine whatever the provider: Document AI reads pages.
 */
export function createExtractor(config: ExtractorConfig, deps: { reader: DocumentReader }): DocumentExtractor {
  const local = createLocalExtractor(deps.reader);
  if (config.kind !== 'documentai') return local;
  const remote = createDocumentAiExtractor(config);
  return {
    provider: remote.provider,
    extractInvoices: (bytes, fileType, options) => (fileType === 'xml' ? local : remote).extractInvoices(bytes, fileType, options),
    extractReceipt: (bytes, fileType, options) => remote.extractReceipt(bytes, fileType, options),
    close: () => remote.close(),
  };
}
