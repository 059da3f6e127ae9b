/**
 * @module containers/media/engines/tts/wav
 * Minimal RIFF/WAVE helpers for 16-bit PCM: build a header, and repair the sizes of a WAV
 * written to a pipe (espeak-ng cannot seek back, so its header sizes are placeholders).
 */

/** A 44-byte WAV header for `dataBytes` of 16-bit little-endian PCM. */
export function wavHeader(dataBytes: number, sampleRateHz: number, channels = 1): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(channels, 22);
  h.writeUInt32LE(sampleRateHz, 24);
  h.writeUInt32LE(sampleRateHz * channels * 2, 28);
  h.writeUInt16LE(channels * 2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataBytes, 40);
  return h;
}

/** Wraps raw s16le PCM into a WAV file. */
export const pcmToWav = (pcm: Buffer, sampleRateHz: number, channels = 1) =>
  Buffer.concat([wavHeader(pcm.length, sampleRateHz, channels), pcm]);

export interface WavInfo {
  sampleRateHz: number;
  channels: number;
  bitsPerSample: number;
  dataOffset: number;
  dataBytes: number;
}

/** Reads the fmt/data chunks; `dataBytes` is clamped to what the buffer holds. */
export function parseWav(buf: Buffer): WavInfo {
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('not a RIFF/WAVE file');
  }
  let off = 12;
  let fmt: Omit<WavInfo, 'dataOffset' | 'dataBytes'> | null = null;
  while (off + 8 <= buf.length) {
    const id = buf.toString('ascii', off, off + 4);
    const size = buf.readUInt32LE(off + 4);
    if (id === 'fmt ') {
      fmt = {
        channels: buf.readUInt16LE(off + 10),
        sampleRateHz: buf.readUInt32LE(off + 12),
        bitsPerSample: buf.readUInt16LE(off + 22),
      };
    } else if (id === 'data') {
      if (!fmt) throw new Error('WAV data chunk before fmt chunk');
      const dataOffset = off + 8;
      return { ...fmt, dataOffset, dataBytes: Math.min(size, buf.length - dataOffset) & ~1 };
    }
    off += 8 + size + (size & 1);
  }
  throw new Error('WAV without a data chunk');
}

/** Rewrites a pipe-written WAV with exact sizes. */
export function repairWav(buf: Buffer): Buffer {
  const info = parseWav(buf);
  return pcmToWav(
    buf.subarray(info.dataOffset, info.dataOffset + info.dataBytes),
    info.sampleRateHz,
    info.channels,
  );
}

/** Which engine and voice spoke a WAV, and what the listener should know (fallbacks). */
export interface SpeechProvenance {
  engine: string;
  voice_id: string;
  notes: string[];
}

/** Prefix of our `ISFT` value: other software's tags are never read as ours. */
const PROVENANCE_TAG = 'video-api tts ';

/**
 * Adds a RIFF `LIST/INFO` chunk before `data`: `ISFT` names the engine and voice, `ICMT` holds
 * the notes. The speech travels from /tts through storage to /render unchanged, so the render's
 * report can say which voice spoke without another channel; players and ffmpeg ignore it.
 */
export function withProvenance(wav: Buffer, provenance: SpeechProvenance): Buffer {
  const info = parseWav(wav);
  const list = provenanceChunk(provenance);
  const pcm = wav.subarray(info.dataOffset, info.dataOffset + info.dataBytes);
  const header = wavHeader(pcm.length, info.sampleRateHz, info.channels);
  const out = Buffer.concat([header.subarray(0, 36), list, header.subarray(36), pcm]);
  out.writeUInt32LE(out.length - 8, 4);
  return out;
}

/** Size fields of a WAV whose length is not known when its head is sent (what ffmpeg and sox write to a pipe). */
export const UNKNOWN_WAV_SIZE = 0xffffffff;

/**
 * The head of a WAV sent while it is synthesised: fmt, the provenance chunk and a `data` chunk
 * whose sizes are `UNKNOWN_WAV_SIZE` (the PCM follows until the stream ends). ffmpeg and ffprobe
 * read such a file to its end and give its exact duration; `parseWav` clamps the size to the bytes.
 */
export function streamingWavHead(sampleRateHz: number, provenance: SpeechProvenance, channels = 1): Buffer {
  const header = wavHeader(0, sampleRateHz, channels);
  header.writeUInt32LE(UNKNOWN_WAV_SIZE, 4);
  header.writeUInt32LE(UNKNOWN_WAV_SIZE, 40);
  return Buffer.concat([header.subarray(0, 36), provenanceChunk(provenance), header.subarray(36)]);
}

/** The `LIST/INFO` chunk of `withProvenance`. */
function provenanceChunk({ engine, voice_id, notes }: SpeechProvenance): Buffer {
  const sub = (id: string, text: string) => {
    const body = Buffer.from(`${text}\0`, 'utf8');
    const head = Buffer.alloc(8);
    head.write(id, 0, 'ascii');
    head.writeUInt32LE(body.length, 4);
    return Buffer.concat([head, body, Buffer.alloc(body.length & 1)]);
  };
  const items = [sub('ISFT', `${PROVENANCE_TAG}${JSON.stringify({ engine, voice_id })}`)];
  if (notes.length) items.push(sub('ICMT', JSON.stringify(notes)));
  const payload = Buffer.concat([Buffer.from('INFO', 'ascii'), ...items]);
  const list = Buffer.alloc(8);
  list.write('LIST', 0, 'ascii');
  list.writeUInt32LE(payload.length, 4);
  return Buffer.concat([list, payload]);
}

/** Reads what `withProvenance` wrote from the head of a file (null: not ours, or not a WAV). */
export function readProvenance(head: Buffer): SpeechProvenance | null {
  if (head.length < 12 || head.toString('ascii', 0, 4) !== 'RIFF' || head.toString('ascii', 8, 12) !== 'WAVE')
    return null;
  let off = 12;
  while (off + 8 <= head.length) {
    const id = head.toString('ascii', off, off + 4);
    const size = head.readUInt32LE(off + 4);
    if (id === 'data') return null;
    if (id === 'LIST' && head.toString('ascii', off + 8, off + 12) === 'INFO') {
      const fields: Record<string, string> = {};
      for (let p = off + 12; p + 8 <= Math.min(off + 8 + size, head.length);) {
        const sid = head.toString('ascii', p, p + 4);
        const ssize = head.readUInt32LE(p + 4);
        fields[sid] = head.toString('utf8', p + 8, Math.min(p + 8 + ssize, head.length)).replace(/\0+$/, '');
        p += 8 + ssize + (ssize & 1);
      }
      if (!fields.ISFT?.startsWith(PROVENANCE_TAG)) return null;
      try {
        const { engine, voice_id } = JSON.parse(fields.ISFT.slice(PROVENANCE_TAG.length));
        const notes = fields.ICMT ? JSON.parse(fields.ICMT) : [];
        if (typeof engine !== 'string' || typeof voice_id !== 'string') return null;
        return {
          engine,
          voice_id,
          notes: Array.isArray(notes) ? notes.filter((n) => typeof n === 'string') : [],
        };
      } catch {
        return null;
      }
    }
    off += 8 + size + (size & 1);
  }
  return null;
}
