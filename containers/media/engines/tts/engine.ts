/**
 * @module containers/media/engines/tts/engine
 * The `TtsEngine` port: text in, a mono 16-bit PCM WAV out.
 */
export interface SynthesisRequest {
  text: string;
  /** Engine-specific voice; each engine documents its default. */
  voiceId?: string;
  /** Per-request provider credential (remote engines only). */
  credential?: string;
  signal?: AbortSignal;
}

export interface SynthesisResult {
  /** A complete WAV file (16-bit PCM, mono). */
  wav: Buffer;
  sampleRateHz: number;
  durationSec: number;
  engine: string;
  voiceId: string;
  /** What a listener should know about this speech, e.g. why a fallback voice spoke. */
  notes?: string[];
}

/**
 * Speech that is still being synthesised: who speaks is known, the samples (mono s16) follow
 * sentence by sentence. Resolved only once the voice is loaded and the text checked, so a
 * request's errors still come before its first byte.
 */
export interface SynthesisStream {
  sampleRateHz: number;
  engine: string;
  voiceId: string;
  notes?: string[];
  pcm: AsyncIterable<Int16Array>;
}

export interface TtsEngine {
  readonly name: string;
  synthesize(req: SynthesisRequest): Promise<SynthesisResult>;
  /** Engines that synthesise in pieces stream them (the route then sends the WAV as it grows). */
  synthesizeStream?(req: SynthesisRequest): Promise<SynthesisStream>;
}
