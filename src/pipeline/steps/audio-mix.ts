/**
 * @module pipeline/steps/audio-mix
 * Which mix of a stereo file's channels the stored audio is. Mixing to mono averages the channels
 * (ffmpeg's `-ac 1`); when one of them is recorded phase-inverted (a miswired cable or adapter, a
 * recorder in M/S mode), the average cancels the voice to near-silence and the analysis finds no
 * speech. That file's voice is in the channels' difference, the `side` mix. The average (`mid`) is
 * stored first; only a stereo file whose mid mix is too quiet for speech detection is decoded again
 * as the side mix, which is kept when it is clearly louder.
 */
import type { ChannelMix } from '../../contract/media-protocol.js';
import { loudLevelDbfs, TOO_QUIET_DBFS } from '../../../wasm/index.js';

/** The side mix must be this much louder than the mid mix to be kept, dB. */
export const SIDE_MIX_MARGIN_DB = 10;

/** Pure: whether the mid mix of a file with `channels` may have cancelled its voice (near-silent, stereo). */
export function mayHaveCancelled(channels: number, midLoudEndDbfs: number): boolean {
  return channels >= 2 && midLoudEndDbfs < TOO_QUIET_DBFS;
}

/** Pure: the mix to keep, given both mixes' loud ends (dBFS, −Infinity for digital silence). */
export function clearerMix(midLoudEndDbfs: number, sideLoudEndDbfs: number): ChannelMix {
  const louder = Number.isFinite(sideLoudEndDbfs) && sideLoudEndDbfs >= midLoudEndDbfs + SIDE_MIX_MARGIN_DB;
  return louder ? 'side' : 'mid';
}

/** The result's warning when the side mix was kept. */
export const SIDE_MIX_WARNING =
  'the stereo channels cancel each other when mixed (one of them is recorded phase-inverted): ' +
  'the speech was analysed from their difference';

/**
 * The loud end of PCM (`PCM_FORMAT`) that passes by in chunks: the loudest of its
 * `windowSamples`-long windows' `loudLevelDbfs`, as the VAD's pass measures it. Holds one window.
 */
export class LoudEndMeter {
  private readonly window: Int16Array;
  private filled = 0;
  private oddByte: number | null = null;
  private loudest = -Infinity;

  constructor(windowSamples: number) {
    this.window = new Int16Array(windowSamples);
  }

  push(bytes: Uint8Array): void {
    let i = 0;
    if (this.oddByte !== null && bytes.length > 0) {
      this.add(this.oddByte | (bytes[0]! << 8));
      this.oddByte = null;
      i = 1;
    }
    for (; i + 1 < bytes.length; i += 2) this.add(bytes[i]! | (bytes[i + 1]! << 8));
    if (i < bytes.length) this.oddByte = bytes[i]!;
  }

  /** The loud end of everything pushed, dBFS; −Infinity for nothing or digital silence. */
  loudEndDbfs(): number {
    if (this.filled > 0) this.measure(this.window.subarray(0, this.filled));
    this.filled = 0;
    return this.loudest;
  }

  private add(uint16: number): void {
    this.window[this.filled++] = (uint16 << 16) >> 16;
    if (this.filled === this.window.length) {
      this.measure(this.window);
      this.filled = 0;
    }
  }

  private measure(samples: Int16Array): void {
    this.loudest = Math.max(this.loudest, loudLevelDbfs(samples));
  }
}
