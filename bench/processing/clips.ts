/**
 * @module bench/processing/clips
 * The 60 s 720p talking head the blur benches share, built once (bench/support/media.ts) in a
 * kept temp folder and reused between runs.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { talkingHead720p } from '../support/media.js';

const CLIP_DIR = join(tmpdir(), 'bench-blur-clips');

/** 60 s of 720p with its speech. */
export function talkingHead720p60s(): string {
  mkdirSync(CLIP_DIR, { recursive: true });
  return talkingHead720p(CLIP_DIR, 60);
}
