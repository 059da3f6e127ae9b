/**
 * @module bench/speech/corpus
 * The speech benchmark corpus: every `speech/` clip of ../shared/media plus two container
 * variants of JFK, with reference transcripts from MANIFEST.tsv, decoded to 16 kHz mono PCM
 * by native ffmpeg.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnFfmpeg } from '../../containers/media/core/ffmpeg.js';

/** Where the shared media lives (override with MEDIA_DIR). */
export const MEDIA_DIR = resolve(process.env.MEDIA_DIR ?? join(import.meta.dirname, '../../../shared/media'));
const EXTRA_CLIPS = ['containers/jfk.mp3', 'containers/jfk_44k_stereo.flac'];

export interface Clip {
  file: string;
  reference: string;
  pcm: Int16Array;
}

/** Decodes any media file to 16 kHz mono s16le PCM with native ffmpeg. */
export async function decodeToPcm(path: string): Promise<Int16Array> {
  using proc = spawnFfmpeg(['-i', path, '-vn', '-ac', '1', '-ar', '16000', '-f', 's16le', 'pipe:1']);
  proc.child.stdin.end();
  const chunks: Buffer[] = [];
  proc.child.stdout.on('data', (c: Buffer) => chunks.push(c));
  await proc.done;
  const buf = Buffer.concat(chunks);
  return new Int16Array(buf.buffer, buf.byteOffset, buf.byteLength / 2);
}

/** Loads the corpus; `withExtras` adds the mp3/flac JFK variants. */
export async function loadCorpus({ withExtras = true } = {}): Promise<Clip[]> {
  const manifest = join(MEDIA_DIR, 'MANIFEST.tsv');
  if (!existsSync(manifest))
    throw new Error(`${manifest} not found: the speech benchmark needs ../shared/media`);
  const [header, ...rows] = readFileSync(manifest, 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
  const fileCol = header.indexOf('file');
  const refCol = header.indexOf('reference_transcript');
  const wanted = rows.filter(
    (r) => r[fileCol].startsWith('speech/') || (withExtras && EXTRA_CLIPS.includes(r[fileCol])),
  );
  return Promise.all(
    wanted.map(async (r) => ({
      file: r[fileCol],
      reference: r[refCol],
      pcm: await decodeToPcm(join(MEDIA_DIR, r[fileCol])),
    })),
  );
}
