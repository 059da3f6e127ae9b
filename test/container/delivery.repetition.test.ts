/**
 * Repetitions of `delivery` through the real recogniser (Whisper, as the pipeline uses it): a
 * repetition spliced into real speech is found at its time, and a real disfluent speaker's
 * restart is found. Needs `npm run setup` and ../shared/media.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FasterWhisperEngine } from '../../containers/media/engines/asr/index.js';
import { analyzeDelivery } from '../../src/analytics/delivery/index.js';
import { JFK_ANCHORS, MEDIA_DIR } from '../support/jfk.js';

const SR = 16_000;
let engine: FasterWhisperEngine;

function pcmOf(file: string): Int16Array {
  const b = execFileSync(
    'ffmpeg',
    ['-v', 'error', '-i', file, '-ac', '1', '-ar', '16000', '-f', 's16le', '-'],
    {
      maxBuffer: 1 << 26,
    },
  );
  return new Int16Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
}

beforeAll(async () => {
  engine = new FasterWhisperEngine();
  await engine.load();
});
afterAll(() => engine?.dispose());

describe('delivery repetitions on recognised speech', () => {
  it('should find "not" spliced in twice at its time', async () => {
    // "…ask not | not what your country…": the audio up to "what", then again from "not".
    // (A spliced phrase, "my fellow | my fellow", Whisper with the default prompt writes as
    // "my fellow uh": docs/delivery.md, limits.)
    const jfk = pcmOf(join(MEDIA_DIR, 'speech/jfk.wav'));
    const cut = Math.round(JFK_ANCHORS.what * SR);
    const from = Math.round((JFK_ANCHORS.not - 0.05) * SR);
    const spliced = new Int16Array(cut + jfk.length - from);
    spliced.set(jfk.subarray(0, cut));
    spliced.set(jfk.subarray(from), cut);
    const out = await engine.transcribe(spliced);
    const { repetitions } = analyzeDelivery({ words: out.words });
    const words = out.words.map((w) => w.word).join(' ');
    expect(
      repetitions.instances.map((r) => [r.text, r.count]),
      words,
    ).toEqual([['not', 2]]);
    const [rep] = repetitions.instances;
    // First copy at "not" (3.99 s); the second copy starts at the splice (5.35 s) and ends before
    // the spliced "what" (5.35 + 1.36 + 0.05 s).
    expect(Math.abs(rep.start - JFK_ANCHORS.not)).toBeLessThan(0.15);
    expect(rep.end).toBeGreaterThan(JFK_ANCHORS.what);
    expect(rep.end).toBeLessThan(JFK_ANCHORS.what + (JFK_ANCHORS.what - JFK_ANCHORS.not) + 0.05);
  });

  it('should find nothing in the untouched recording', async () => {
    const out = await engine.transcribe(pcmOf(join(MEDIA_DIR, 'speech/jfk.wav')));
    expect(analyzeDelivery({ words: out.words }).repetitions.instances).toEqual([]);
  });
});
