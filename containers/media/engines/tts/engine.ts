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

export interface TtsEngine {
  readonly name: string;
  synthesize(req: SynthesisRequest): Promise<SynthesisResult>;
}

