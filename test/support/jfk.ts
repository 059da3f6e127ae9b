/**
 * The speech recordings of ../shared/media as the recogniser tests read them, and what is known of
 * jfk.wav independently of any engine under test.
 */
import { resolve } from 'node:path';
import { SHARED_MEDIA } from './services.js';

/** ../shared/media, or `MEDIA_DIR` when set. */
export const MEDIA_DIR = resolve(process.env.MEDIA_DIR ?? SHARED_MEDIA);

/** Word starts (s) in jfk.wav as native pocketsphinx_continuous (Debian model) reports them. */
export const JFK_ANCHORS: Record<string, number> = {
  my: 0.98,
  fellow: 1.24,
  americans: 1.63,
  not: 3.99,
  what: 5.35,
  your: 5.61,
  country: 5.86,
};
