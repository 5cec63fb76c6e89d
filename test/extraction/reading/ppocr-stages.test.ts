import { afterEach, describe, expect, it, vi } from 'vitest';
import { performance } from 'node:perf_hooks';
import { stageClock } from '../../../src/extraction/ppocr/stages.ts';

// Where a reading's time goes (bench/ocr-speed.ts prints it): each call books the time since the previous one.
describe('stageClock', () => {
  afterEach(() => vi.restoreAllMocks());

  it('books the wall time since the last call to the stage named, summing a stage met again', () => {
    const times = [100, 130, 180, 185, 235];
    vi.spyOn(performance, 'now').mockImplementation(() => times.shift()!);
    const lap = stageClock();
    lap.stage('decode'); // 100 → 130
    lap.stage('rec-run'); // 130 → 180
    lap.stage('rec-words'); // 180 → 185
    lap.stage('rec-run'); // 185 → 235
    expect(Object.keys(lap.stages)).toEqual(['decode', 'rec-run', 'rec-words']);
    expect(lap.stages.decode!.wallMs).toBe(30);
    expect(lap.stages['rec-run']!.wallMs).toBe(100);
    expect(lap.stages['rec-words']!.wallMs).toBe(5);
    for (const s of Object.values(lap.stages)) expect(s.cpuMs).toBeGreaterThanOrEqual(0);
  });
});
