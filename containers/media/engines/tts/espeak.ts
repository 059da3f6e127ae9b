/**
 * @module containers/media/engines/tts/espeak
 * The embedded `TtsEngine`: Debian's espeak-ng. No MBROLA voices are installable here
 * (`apt-cache search mbrola` finds none), so the default is espeak-ng's own `en-us` with the
 * smoother Klatt-style variant, a slightly slower rate and lower pitch than espeak's defaults,
 * which listeners find less robotic than the stock 175 wpm.
 */
import { mediaConfig } from '../../core/config.js';
import { spawnMedia } from '../../core/ffmpeg.js';
import type { SynthesisRequest, SynthesisResult, TtsEngine } from './engine.js';
import { TtsError } from './errors.js';
import { parseWav, repairWav } from './wav.js';

export const ESPEAK_BIN = mediaConfig().tts.espeakPath;
/** espeak-ng writes 22.05 kHz mono 16-bit PCM. */
export const ESPEAK_SAMPLE_RATE_HZ = 22_050;

export interface EspeakOptions {
  /** Voice (+variant). Default 'en-us+m3'. */
  voice?: string;
  /** Words per minute. Default 160 (espeak's own default 175 sounds rushed). */
  rateWpm?: number;
  /** Pitch 0..99. Default 45. */
  pitch?: number;
  /** Pause between words in 10 ms units. Default 1. */
  wordGap?: number;
}

const VOICE_PATTERN = /^[a-z]{2,3}(-[a-z0-9]{1,8})*(\+[a-z0-9_-]{1,16})?$/i;

/**
 * @example const wav = (await createEspeakEngine().synthesize({ text: 'Hello' })).wav;
 */
export function createEspeakEngine({
  voice = 'en-us+m3',
  rateWpm = 160,
  pitch = 45,
  wordGap = 1,
}: EspeakOptions = {}): TtsEngine {
  return {
    name: 'espeak-ng',
    async synthesize({ text, voiceId, signal }: SynthesisRequest): Promise<SynthesisResult> {
      const v = voiceId && voiceId !== 'default' ? voiceId : voice;
      if (!VOICE_PATTERN.test(v))
        throw new TtsError(
          'tts_voice_invalid',
          `voice_id: ${JSON.stringify(v)} is not an espeak-ng voice name (e.g. en-us, en-gb+f3)`,
          400,
        );
      using proc = spawnMedia(
        ESPEAK_BIN,
        ['-v', v, '-s', String(rateWpm), '-p', String(pitch), '-g', String(wordGap), '--stdout'],
        signal,
      );
      const chunks: Buffer[] = [];
      proc.child.stdout.on('data', (c: Buffer) => chunks.push(c));
      proc.child.stdin.end(text, 'utf8'); // text via stdin: no argument-length or option-injection issues
      try {
        await proc.done;
      } catch (err) {
        throw new TtsError('tts_failed', `espeak-ng failed: ${(err as Error).message}`, 500, { cause: err });
      }
      const raw = Buffer.concat(chunks);
      if (raw.length <= 44) throw new TtsError('tts_failed', `espeak-ng produced no audio (voice ${v})`, 500);
      const wav = repairWav(raw);
      const info = parseWav(wav);
      return {
        wav,
        sampleRateHz: info.sampleRateHz,
        durationSec: info.dataBytes / 2 / info.sampleRateHz,
        engine: 'espeak-ng',
        voiceId: v,
      };
    },
  };
}
