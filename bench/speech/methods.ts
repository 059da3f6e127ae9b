/**
 * @module bench/speech/methods
 * Ways of recovering the hesitations Whisper tidies away (issue 38), on Whisper base as shipped,
 * for the benches to compare side by side: `bare` (no prompt, the words aligned as written),
 * `prompt` (the disfluent prompt alone), `fillers` (the aligner's filler alternatives alone),
 * `prompt+fillers` (both) and `service` (both, plus Whisper's hesitation scan: the engine as the
 * service builds it).
 */
import type { FasterWhisperOptions } from '../../containers/media/engines/asr/faster-whisper.js';

export const HESITATION_METHODS: Readonly<Record<string, FasterWhisperOptions>> = {
  bare: { prompt: '', fillerAlignment: false },
  prompt: { fillerAlignment: false },
  fillers: { prompt: '' },
  'prompt+fillers': { hesitationScan: false },
  service: {},
};
