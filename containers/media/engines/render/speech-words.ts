/**
 * @module containers/media/engines/render/speech-words
 * Render stage 3: the new speech's words, timed on the output's timeline, for the job's caption
 * files (asked by `speech_words`; the Worker reads them from `GET /render/speech/{job}`), and the
 * aligned script for the caption track. Speech synthesized from a script by an English voice is force-aligned to that
 * script: one alignment times both. Speech that was supplied, spoken by a voice of another or an
 * unknown language (the aligner's acoustic model is English), or whose alignment failed is
 * transcribed by the service's recogniser instead: in the voice's language when it is named,
 * else in the language the recogniser detects, as an analysis does (a voice of unknown language
 * heard speaking English gets its script's words after all). Transcribed speech of a script keeps
 * the script's words at the recogniser's times (`script-words.ts`).
 * The output carries the speech from its first sample and is cut at the speech's end
 * (`frame-pipeline/ffmpeg-args.ts`, `plan.ts`), so a time in the speech is the same time in the
 * output; nothing is kept past the output's end.
 */
import type { TimedWord } from '../../../../src/contract/media.js';
import { isSpokenLanguage } from '../../../../src/contract/languages.js';
import type { RenderSpeech } from '../../../../src/contract/render.js';
import type { SpeechProvenance } from '../tts/wav.js';
import { MAX_ALIGN_SEC } from './align.js';
import type { CaptionWord } from './captions.js';
import type { Prepared } from './prepare.js';
import type { RenderLog } from './render-log.js';
import { scriptTimedBy } from './script-words.js';
import type { RenderEngines, RenderInput } from './types.js';

/** Longest new speech transcribed for the caption files: what `POST /asr` takes in one body (`MAX_PCM_BODY_BYTES`). */
export const MAX_TRANSCRIBE_SEC = 30 * 60;

/** Engines whose voice ids open with their language (Piper `en_US-joe-medium`, espeak-ng `en-gb+f3`). */
const LANGUAGE_NAMED_VOICES = new Set(['piper', 'espeak-ng']);

/**
 * Pure: the language a synthesized voice speaks when its id names it, else null (a remote
 * provider's voice ids are opaque).
 * @example voiceLanguage({ engine: 'piper', voice_id: 'en_US-joe-medium', notes: [] }) // 'en'
 */
export function voiceLanguage(
  provenance: Pick<SpeechProvenance, 'engine' | 'voice_id'> | null,
): string | null {
  if (!provenance || !LANGUAGE_NAMED_VOICES.has(provenance.engine)) return null;
  const code = provenance.voice_id.split(/[-_+]/)[0].toLowerCase();
  return isSpokenLanguage(code) ? code : null;
}

/**
 * Pure: the words as they are in an output of `durationSec`: a word that starts at or after its
 * end is not in it, one that runs past it ends with it.
 */
export function onOutputTimeline(words: readonly TimedWord[], durationSec: number): TimedWord[] {
  return words
    .filter((w) => w.start < durationSec)
    .map((w) => ({ ...w, end: Math.max(w.start, Math.min(w.end, durationSec)) }));
}

export interface SpeechTiming {
  /** The caption track's script, aligned to the speech; null without a script or an aligner, or when it failed. */
  aligned: Promise<CaptionWord[] | null>;
  /** The new speech's words for the caption files; null without new speech or when none could be timed. */
  speech: Promise<RenderSpeech | null>;
}

/** Starts timing the new speech; the caller awaits each part where it needs it. */
export function timeNewSpeech(
  input: RenderInput,
  { speech, plan }: Prepared,
  engines: RenderEngines,
  log: RenderLog,
): SpeechTiming {
  const script = input.options.captions;
  const aligned: Promise<CaptionWord[] | null> =
    script && speech && engines.align
      ? log.time('captions_align', () =>
          engines.align!(speech.path, script).catch((err) => {
            log.note(`captions: forced alignment failed (${(err as Error).message})`);
            return null;
          }),
        )
      : Promise.resolve(null);
  /** The script's words with the aligner's times: the exact words of speech synthesized from it. */
  const fromScript = async (): Promise<RenderSpeech | null> => {
    // The aligner hears at most its first MAX_ALIGN_SEC: a longer speech's later words get no times.
    if (plan.durationSec > MAX_ALIGN_SEC) return null;
    const words = await aligned;
    if (!words?.length) return null;
    const scored = words.map((w) => ({ ...w, confidence: 1 }));
    return { timing: 'alignment', language: 'en', words: onOutputTimeline(scored, plan.durationSec) };
  };
  const timed = async (): Promise<RenderSpeech | null> => {
    if (!speech || !input.options.speech_words) return null;
    const language = script ? voiceLanguage(speech.provenance) : null;
    if (language === 'en') {
      const own = await fromScript();
      if (own) return own;
    }
    if (!engines.transcribe) return null;
    try {
      if (plan.durationSec > MAX_TRANSCRIBE_SEC)
        log.note(
          `caption files: only the first ${MAX_TRANSCRIBE_SEC / 60} min of the new speech are transcribed`,
        );
      const out = await log.time('speech_transcribe', () =>
        engines.transcribe!(
          speech.path,
          Math.min(plan.durationSec, MAX_TRANSCRIBE_SEC),
          language ?? undefined,
          input.signal,
        ),
      );
      // A voice of an unknown language that spoke English: its script, aligned, has the exact words.
      if (script && language === null && out.language === 'en') {
        const own = await fromScript();
        if (own) return own;
      }
      // Speech of a script: the script's words, at the times the recogniser heard them.
      const own = script ? scriptTimedBy(script, out.words) : null;
      const words = onOutputTimeline(own ?? out.words, plan.durationSec);
      if (words.length === 0) return null;
      for (const w of out.warnings ?? []) log.note(`caption files: ${w}`);
      return { timing: 'transcription', language: out.language ?? language ?? 'en', words };
    } catch (err) {
      // The render's output stands without caption files; a deleted job's abort ends the render anyway.
      log.note(`caption files: the new speech could not be transcribed (${(err as Error).message})`);
      return null;
    }
  };
  const timedSpeech = timed();
  timedSpeech.catch(() => {}); // awaited by the render once the output is encoded
  return { aligned, speech: timedSpeech };
}
