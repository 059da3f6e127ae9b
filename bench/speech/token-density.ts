/**
 * @module bench/speech/token-density
 * Whisper tokens per language for the same sentence (Article 1 of the UDHR,
 * `udhr-article1.json`), counted with the tokenizer of the installed model, against the density
 * the engine bounds each language's decodes with (`containers/media/engines/asr/token-density.ts`).
 *
 *   npx tsx bench/speech/token-density.ts
 *
 * Prints one row per language: its script, tokens, tokens per English token, the engine's
 * density (which must not be lower) and the resulting bound in tokens per second.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { venvPython } from '../../containers/media/core/venv.js';
import { DEFAULT_WHISPER_MODEL_DIR } from '../../containers/media/engines/asr/faster-whisper.js';
import { maxTokensPerSecond, tokenDensity } from '../../containers/media/engines/asr/token-density.js';

const TEXTS = new URL('./udhr-article1.json', import.meta.url);

/** Counts each text's tokens as Whisper's decoder writes them (after a space, as a transcript starts). */
const COUNT_TOKENS = `
import json, sys, tokenizers
tok = tokenizers.Tokenizer.from_file(sys.argv[1])
texts = json.load(sys.stdin)
print(json.dumps({k: len(tok.encode(" " + v, add_special_tokens=False).ids) for k, v in texts.items()}))
`;

export interface MeasuredDensity {
  language: string;
  tokens: number;
  /** Tokens per token of the English text. */
  ratio: number;
}

/** Tokens of Article 1 in every language of `udhr-article1.json`, by the model's own tokenizer. */
export function measureTokenDensities(modelDir: string = DEFAULT_WHISPER_MODEL_DIR): MeasuredDensity[] {
  const texts = (JSON.parse(readFileSync(TEXTS, 'utf8')) as { article1: Record<string, string> }).article1;
  const counts = JSON.parse(
    execFileSync(venvPython(), ['-c', COUNT_TOKENS, join(modelDir, 'tokenizer.json')], {
      input: JSON.stringify(texts),
      encoding: 'utf8',
    }),
  ) as Record<string, number>;
  return Object.entries(counts)
    .map(([language, tokens]) => ({ language, tokens, ratio: tokens / counts.en }))
    .sort((a, b) => a.ratio - b.ratio);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log('| language | script | tokens | × English | engine density | bound, tokens/s |');
  console.log('|---|---|---|---|---|---|');
  for (const m of measureTokenDensities()) {
    const script = new Intl.Locale(m.language).maximize().script ?? '?';
    console.log(
      `| ${m.language} | ${script} | ${m.tokens} | ${m.ratio.toFixed(2)} | ${tokenDensity(m.language)} | ${maxTokensPerSecond(m.language)} |`,
    );
  }
}
