// Where a reading's time goes: each stage's wall time and the process's CPU time during it (ONNX Runtime's threads
// included), summed over its occurrences (the recognition batches), for the OCR speed benchmark (bench/ocr-speed.ts).
// CPU time says what a stage costs on a machine shared with other work, where wall time also counts the waiting.

import { performance } from 'node:perf_hooks';

export type OcrStage = 'render' | 'decode' | 'det-prep' | 'det-run' | 'det-post' | 'crop' | 'rec-prep' | 'rec-run' | 'rec-words' | 'deskew';

export interface StageTimes {
  wallMs: number;
  cpuMs: number;
}

export interface StageClock {
  readonly stages: Partial<Record<OcrStage, StageTimes>>;
  /** Books the time since the previous call (or the clock's start) to `name`. */
  stage(name: OcrStage): void;
}

export function stageClock(): StageClock {
  let wall = performance.now();
  let cpu = process.cpuUsage();
  const stages: Partial<Record<OcrStage, StageTimes>> = {};
  return {
    stages,
    stage(name) {
      const now = performance.now();
      const used = process.cpuUsage(cpu);
      const s = (stages[name] ??= { wallMs: 0, cpuMs: 0 });
      s.wallMs += now - wall;
      s.cpuMs += (used.user + used.system) / 1000;
      wall = now;
      cpu = process.cpuUsage();
    },
  };
}
