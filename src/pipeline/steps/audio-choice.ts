/**
 * @module pipeline/steps/audio-choice
 * Which audio of the file the analysis hears. Normally the first audio stream with its channels
 * averaged (ffmpeg's `-ac 1`). Two kinds of files lose their speech that way:
 * - a stereo recording with one channel phase-inverted (a miswired cable or adapter, a recorder in
 *   M/S mode): the average cancels the voice to near-silence, which is in the channels' difference
 *   (the `side` mix);
 * - a file whose first audio track is silent and whose speech is on another (a screen recording
 *   with the app's sound on track 1 and the microphone on track 2).
 * The first stream's average is decoded first; only when it is too quiet for speech detection are
 * the other candidates decoded, in order, until one is not; the clearest is kept. A file of several
 * tracks whose kept one is loud but holds no speech (a game's or a film's sound on track 1, the
 * microphone on track 2) has its later tracks tried too, and the first with speech is kept
 * (`extractAudio`). The candidates and the choice among them are src/contract/audio-choice.ts's,
 * which the media container's render uses for supplied speech too.
 */
import type { AudioChoice } from '../../contract/media-protocol.js';
import { loudLevelDbfs, TOO_QUIET_DBFS } from '../../../wasm/index.js';

/** Why another audio than the first stream's average was kept: the first was too quiet, or held no speech. */
export type OtherAudioReason = 'quiet' | 'no_speech';

/** Pure: whether audio with this loud end (dBFS) is too quiet to be the speech (digital silence is). */
export const tooQuietForSpeech = (loudEndDbfs: number): boolean => loudEndDbfs < TOO_QUIET_DBFS;

/** The result's warning when the analysis heard other audio than the first stream's average; else null. */
export function audioChoiceWarning(choice: AudioChoice & { reason?: OtherAudioReason }): string | null {
  if (choice.stream > 0 && choice.reason === 'no_speech')
    return `no speech was found on the first audio track: the speech was analysed from audio track ${choice.stream + 1}`;
  if (choice.stream > 0)
    return (
      `the first audio track is silent or nearly so (its loudest sounds below ${TOO_QUIET_DBFS} dBFS): ` +
      `the speech was analysed from audio track ${choice.stream + 1}`
    );
  if (choice.mix === 'side')
    return (
      'the stereo channels cancel each other when mixed (one of them is recorded phase-inverted): ' +
      'the speech was analysed from their difference'
    );
  return null;
}

/**
 * The loud end of PCM (`PCM_FORMAT`) that passes by in chunks: the loudest of its
 * `windowSamples`-long windows' `loudLevelDbfs` (the VAD raises each window by its own). Measured
 * as the audio is stored, it also decides the quiet-recording warning. Holds one window.
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
      this.add(Int16Array.of((bytes[0]! << 8) | this.oddByte));
      this.oddByte = null;
      i = 1;
    }
    const samples = (bytes.length - i) >> 1;
    const start = bytes.byteOffset + i;
    // s16le read in place where aligned (as pcmWindows reads it), else copied out first.
    this.add(
      start % 2 === 0
        ? new Int16Array(bytes.buffer, start, samples)
        : new Int16Array(bytes.slice(i, i + 2 * samples).buffer),
    );
    i += 2 * samples;
    if (i < bytes.length) this.oddByte = bytes[i]!;
  }

  /** The loud end of everything pushed, dBFS; −Infinity for nothing or digital silence. */
  loudEndDbfs(): number {
    if (this.filled > 0) this.measure(this.window.subarray(0, this.filled));
    this.filled = 0;
    return this.loudest;
  }

  private add(samples: Int16Array): void {
    for (let at = 0; at < samples.length;) {
      const n = Math.min(this.window.length - this.filled, samples.length - at);
      this.window.set(samples.subarray(at, at + n), this.filled);
      this.filled += n;
      at += n;
      if (this.filled === this.window.length) {
        this.measure(this.window);
        this.filled = 0;
      }
    }
  }

  private measure(samples: Int16Array): void {
    this.loudest = Math.max(this.loudest, loudLevelDbfs(samples));
  }
}
