/**
 * @module bench/speech/sets-build/spliced-en
 * Builds the `spliced-en` set (docs/speech-sets.md): real English read speech of the SPPAS English
 * samples (hosts E_E_B037, ENG_M15 → `tune`; E_E_A040, oriana → `heldout`) with real French "euh"
 * filled pauses of SPPAS French speakers (AG, BX, EB, IM → `tune`; MG, SR, YM → `heldout`) spliced
 * into the pauses between the hosts' inter-pausal units (IPU). Every file is read at a commit
 * pinned below, from the snapshots of brigittebigi/sppas (hosts: 3ee65972, bbb7b3b9, 392851d1;
 * HEAD 8366210de1a314fe796245ce3b82bc585b72e42f at the build) and mirfan899/sppas (fillers and
 * alignments: c0e5932c, 605cb4e9, f029679c; HEAD c0e5932cc1e16bfcafc48f70f71db75d670a5de2).
 *
 *   npx tsx bench/speech/sets-build/spliced-en.ts [--out DIR]
 *     [--mirror-root /work/.mirror] [--repo owner/name=GITDIR ...]
 *
 * Rules (deterministic), and why:
 * - Host pauses: the stretches of pause intervals between two IPUs of the host TextGrid's
 *   transcription tier. oriana has no TextGrid: its pauses are the (lines − 1) longest interior
 *   `ffmpeg silencedetect` (-30 dB, 0.3 s) silences, in time order, each narrowed to the pause
 *   that the SPPAS phone alignment of the same recording marks there, as -30 dBFS is close to
 *   oriana's speech level and the silences start inside soft word endings.
 * - A host over 21 s is cut into two clips in the middle of the pause nearest its midpoint, so
 *   clips stay short like the other sets'; every other pause of a clip (all ≥ 0.3 s) gets one
 *   hesitation.
 * - Every clip is made three times (v1..v3) with other fillers, to have more hesitations than the
 *   four hosts have pauses. Slot j (over the clips of a part, in order) of version v gets filler
 *   speaker (j + v) mod K of the part's K speakers, each speaker's snippets in turn: no randomness,
 *   and every filler speaker in every host.
 * - Snippet: the aligned `euh` token (SPPAS palign TokensAlign whose phones are all `fp`,
 *   0.14–0.35 s: a filled pause, not "et" or a lengthened vowel), scaled so its RMS equals the
 *   host's speech RMS (gain capped to keep its peak under 0.95, no clipping), 5 ms raised-cosine
 *   fades so the splice does not click.
 * - Splice into pause [a, b]: host up to a + 0.15 s, the snippet, host from b − 0.15 s: the
 *   snippet has the host's own room tone either side; its hesitation time is the snippet start.
 * - The build fails unless the counts per part meet the targets, the snippets' durations and
 *   peaks hold, every cut point lies in a pause of the same recording's phone alignment (where one
 *   exists), and each FLAC read back has the snippets' energy exactly at the listed times.
 */
import { join, posix } from 'node:path';
import { at, correlation, decodeF32, RATE, rms, silences, writeFlac } from './audio.js';
import {
  cleanSppas,
  decodeText,
  findTier,
  isPauseLabel,
  parseTextGrid,
  parseXra,
  type Interval,
} from './annotation.js';
import { cli, finishSet, startSet, type Row } from './cli.js';
import type { Repo } from './git.js';

const PAD = 0.15;
const MIN_PAUSE = 0.3;
const SNIP_MIN = 0.14;
const SNIP_MAX = 0.35;
const SPLIT_OVER_S = 21;
const FADE_S = 0.005;
const PEAK_MAX = 0.95;
const VERSIONS = 3;
const SILENCE = { noise: '-30dB', d: 0.3 };
const TARGET = { tune: { clips: 9, hes: 24 }, heldout: { clips: 12, hes: 21 } } as const;

type Part = 'tune' | 'heldout';
type Span = { start: number; end: number };
const HOST_REPO = 'brigittebigi/sppas';
const FILLER_REPO = 'mirfan899/sppas';

const C_3EE = '3ee6597256f6ce2a86167cc38f224092446ddd74'; // 2015-09-03, the last with the E_E_* samples
const C_BBB = 'bbb7b3b9143617d10874dc4df9f8cf7574b469e4'; // 2020-09-05, ENG_M15_ENG_T02.TextGrid added
const C_392 = '392851d1f349e1f5957308c25e1b5398e1dec767'; // 2018-09-28, the last version of oriana2.txt
const C_F02 = 'f029679c3fa6443421f2e48bacad205fe4cc89b6'; // 2018-07-23, private/samples/reference
const C_MIR = 'c0e5932cc1e16bfcafc48f70f71db75d670a5de2'; // mirfan899 HEAD: the SPPAS 1.9.9 alignments
const C_605 = '605cb4e964b781f25b524b7b242e52fcf78538b2'; // 2018-07-18: the SPPAS 1.9.7 alignments
const ENG = 'samples/samples-eng';
const REF = 'private/samples/reference/samples-EN';

interface HostDef {
  speaker: string;
  part: Part;
  commit: string;
  wav: string;
  textgrid?: string;
  txt?: string;
  /** A SPPAS phone alignment (in mirfan899/sppas) of the same recording, to check the splice points. */
  check?: { path: string; wav: string };
}

/**
 * A host recording of brigittebigi/sppas `samples/samples-eng` with its transcript (a TextGrid, or
 * for oriana only a .txt); `checked` when the SPPAS reference samples hold its phone alignment.
 */
function host(
  speaker: string,
  part: Part,
  commit: string,
  file: string,
  transcript: 'TextGrid' | 'txt',
  checked: boolean,
): HostDef {
  const stem = file.replace(/\.[^.]+$/, '');
  const text = `${ENG}/${stem}.${transcript}`;
  const check = checked ? { path: `${REF}/${stem}-palign.TextGrid`, wav: `${REF}/${stem}.wav` } : undefined;
  return {
    speaker,
    part,
    commit,
    wav: `${ENG}/${file}`,
    ...(transcript === 'txt' ? { txt: text } : { textgrid: text }),
    check,
  };
}
const HOSTS = [
  host('E_E_B037', 'tune', C_3EE, 'E_E_B037-P0.wav', 'TextGrid', true),
  host('ENG_M15', 'tune', C_BBB, 'ENG_M15_ENG_T02.wav', 'TextGrid', false),
  host('E_E_A040', 'heldout', C_3EE, 'E_E_A040-O2.wav', 'TextGrid', true),
  host('oriana', 'heldout', C_BBB, 'oriana1.wav', 'txt', true),
  host('oriana', 'heldout', C_392, 'oriana2.WAV', 'txt', true),
];

const FILLERS = (
  [
    ['AG', 'tune', 'AG_éàç_0460'],
    ['BX', 'tune', 'BX_track_0451'],
    ['EB', 'tune', 'EB_track_0641'],
    ['IM', 'tune', 'IM_track_0767'],
    ['MG', 'heldout', 'MG_track_0702'],
    ['SR', 'heldout', 'SR_track_631'],
    ['YM', 'heldout', 'YM_track_0182'],
  ] as const
).map(([speaker, part, stem]) => ({
  speaker,
  part: part as Part,
  wav: `samples/samples-fra/${stem}.wav`,
  palign: `samples/annotation-results/samples-fra/${stem}-palign.xra`,
}));
/** Alignments tried in turn, the newest first; the first with a usable `euh` token wins. */
const ALIGN_COMMITS = [
  { commit: C_MIR, label: 'SPPAS 1.9.9' },
  { commit: C_605, label: 'SPPAS 1.9.7' },
];

const db = (v: number): number => 20 * Math.log10(Math.max(v, 1e-10));
const f3 = (t: number): string => t.toFixed(3);
const spans = (ps: Span[]) => ps.map((p) => `${f3(p.start)}-${f3(p.end)}`).join(' ');

// ---------------------------------------------------------------------------------------------
// hosts

interface Host {
  def: HostDef;
  stem: string;
  pcm: Float32Array;
  dur: number;
  ipus: Interval[];
  /** pauses[k] lies between ipus[k] and ipus[k + 1]. */
  pauses: Span[];
  speechRms: number;
  pauseSource: string;
  /** The phone alignment of the same recording, when there is one. */
  phones?: Interval[];
}

/** The IPUs and pauses of a host's TextGrid transcription tier. */
function textGridIpus(hosts: Repo, def: HostDef): { ipus: Interval[]; pauses: Span[] } {
  const tiers = parseTextGrid(decodeText(hosts.show(def.commit, def.textgrid!)));
  const tier = findTier(tiers, 'transcription');
  if (!tier) throw new Error(`${def.textgrid}: no transcription tier`);
  const ipus: Interval[] = [];
  const pauses: Span[] = [];
  let gapStart: number | undefined;
  for (const iv of tier.items) {
    if (isPauseLabel(iv.text)) {
      gapStart ??= iv.start;
      continue;
    }
    if (ipus.length && gapStart !== undefined) pauses.push({ start: gapStart, end: iv.start });
    else if (ipus.length) throw new Error(`${def.textgrid}: two IPUs without a pause at ${iv.start}`);
    ipus.push({ start: iv.start, end: iv.end, text: cleanSppas(iv.text, 'en') });
    gapStart = undefined;
  }
  return { ipus, pauses };
}

/** A host without a TextGrid: one IPU per transcript line, the pauses from silencedetect. */
function silenceIpus(wav: string, bytes: Buffer, lines: string[], dur: number, phones?: Interval[]) {
  const sil = silences(bytes, SILENCE.noise, SILENCE.d, dur);
  const interior = sil.filter((s) => s.start > 0.01 && s.end < dur - 0.01);
  const lead = sil.find((s) => s.start <= 0.01);
  const trail = sil.find((s) => s.end >= dur - 0.01);
  let pauses = [...interior]
    .sort((x, y) => y.end - y.start - (x.end - x.start))
    .slice(0, lines.length - 1)
    .sort((x, y) => x.start - y.start);
  if (pauses.length !== lines.length - 1) throw new Error(`${wav}: too few silences`);
  let narrowed = '';
  if (phones) {
    const gaps: Span[] = [];
    for (const q of phones) {
      if (!isPauseLabel(q.text)) continue;
      const last = gaps[gaps.length - 1];
      if (last && Math.abs(last.end - q.start) < 1e-6) last.end = q.end;
      else gaps.push({ start: q.start, end: q.end });
    }
    pauses = pauses.map((p) => {
      const best = gaps
        .map((g) => ({ start: Math.max(g.start, p.start), end: Math.min(g.end, p.end) }))
        .sort((x, y) => y.end - y.start - (x.end - x.start))[0];
      if (!best || best.end - best.start < MIN_PAUSE)
        throw new Error(`${wav}: silence ${spans([p])} has no aligned pause`);
      if (best.start !== p.start || best.end !== p.end) narrowed += ` ${spans([p])}->${spans([best])}`;
      return best;
    });
  }
  const edges = [lead?.end ?? 0, ...pauses.flatMap((p) => [p.start, p.end]), trail?.start ?? dur];
  const ipus = lines.map((text, k) => ({ start: edges[2 * k], end: edges[2 * k + 1], text }));
  return { ipus, pauses, narrowed };
}

function loadHost(hosts: Repo, fillers: Repo, def: HostDef): Host {
  const bytes = hosts.show(def.commit, def.wav);
  const pcm = decodeF32(bytes);
  const dur = pcm.length / RATE;
  const stem = posix.basename(def.wav).replace(/\.[^.]+$/, '');
  let phones: Interval[] | undefined;
  let checkNote = 'no phone alignment';
  if (def.check) {
    const other = decodeF32(fillers.show(C_F02, def.check.wav));
    const r = correlation(pcm, other);
    // the reference copy may be another take or edit: its alignment only counts if it is this audio
    if (r > 0.9 && Math.abs(other.length - pcm.length) < RATE * 0.01) {
      phones = findTier(parseTextGrid(decodeText(fillers.show(C_F02, def.check.path))), 'PhonAlign')!.items;
      checkNote = `phone alignment ${FILLER_REPO}@${C_F02.slice(0, 8)} ${def.check.path} (same recording, r=${r.toFixed(3)})`;
    } else checkNote = `phone alignment ${def.check.path} not the same recording (r=${r.toFixed(3)}), unused`;
  }
  let ipus: Interval[];
  let pauses: Span[];
  let pauseSource = `pauses from the transcription tier of ${def.textgrid}`;
  if (def.textgrid) ({ ipus, pauses } = textGridIpus(hosts, def));
  else {
    const text = hosts.show(def.commit, def.txt!).toString('utf8');
    const lines = text
      .split(/\r?\n/)
      .map((l) => cleanSppas(l, 'en'))
      .filter(Boolean);
    const found = silenceIpus(def.wav, bytes, lines, dur, phones);
    ({ ipus, pauses } = found);
    pauseSource =
      `pauses = the ${pauses.length} longest interior ffmpeg silencedetect (${SILENCE.noise}, ${SILENCE.d} s) silences of ${stem}, in transcript order (no TextGrid)` +
      (found.narrowed
        ? `, narrowed to the pauses of the SPPAS phone alignment of the same recording (${def.check!.path}):${found.narrowed}`
        : '');
  }
  let s = 0;
  let n = 0;
  for (const iv of ipus) {
    for (let i = at(iv.start); i < Math.min(pcm.length, at(iv.end)); i++) s += pcm[i] * pcm[i];
    n += Math.max(0, Math.min(pcm.length, at(iv.end)) - at(iv.start));
  }
  const speechRms = Math.sqrt(s / n);
  console.log(
    `host ${stem} (${def.speaker}, ${def.part}): ${f3(dur)} s, ${ipus.length} IPUs, pauses ${spans(pauses)}, speech RMS ${db(speechRms).toFixed(1)} dBFS; ${checkNote}`,
  );
  return { def, stem, pcm, dur, ipus, pauses, speechRms, pauseSource, phones };
}

interface Segment {
  host: Host;
  index: number;
  start: number;
  end: number;
  ipus: Interval[];
  pauses: Span[];
}

/** A host as one clip, or two cut in the middle of the pause nearest its midpoint. */
function segments(host: Host): Segment[] {
  const cuts: number[] = [];
  if (host.dur > SPLIT_OVER_S) {
    const mid = host.dur / 2;
    const off = (p: Span) => Math.abs((p.start + p.end) / 2 - mid);
    const k = host.pauses.reduce((best, p, i) => (off(p) < off(host.pauses[best]) ? i : best), 0);
    cuts.push((host.pauses[k].start + host.pauses[k].end) / 2);
  }
  const bounds = [0, ...cuts, host.dur];
  const out: Segment[] = [];
  for (let s = 0; s + 1 < bounds.length; s++) {
    const [a, b] = [bounds[s], bounds[s + 1]];
    const idx = host.ipus.map((_, k) => k).filter((k) => host.ipus[k].start >= a && host.ipus[k].end <= b);
    const pauses = idx.slice(0, -1).map((k) => host.pauses[k]);
    for (const p of pauses)
      if (p.end - p.start < MIN_PAUSE)
        throw new Error(`${host.stem}: pause ${spans([p])} shorter than ${MIN_PAUSE} s`);
    out.push({ host, index: s + 1, start: a, end: b, ipus: idx.map((k) => host.ipus[k]), pauses });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// fillers

interface Snippet extends Span {
  speaker: string;
  wavPath: string;
  alignCommit: string;
  alignLabel: string;
  pcm: Float32Array;
}

/** Every aligned `euh` of a filler speaker's recording, in time order. */
function loadFillers(fillers: Repo, def: (typeof FILLERS)[number]): Snippet[] {
  const pcm = decodeF32(fillers.show(C_MIR, def.wav));
  for (const ac of ALIGN_COMMITS) {
    const tiers = parseXra(fillers.show(ac.commit, def.palign).toString('utf8'));
    const toks = findTier(tiers, 'TokensAlign')!.items;
    const phones = findTier(tiers, 'PhonAlign')!.items;
    const found: Snippet[] = [];
    toks.forEach((t, k) => {
      if (!t.tags?.includes('euh')) return;
      const ph = phones.filter((p) => p.start >= t.start - 1e-6 && p.end <= t.end + 1e-6);
      const d = t.end - t.start;
      if (!ph.length || ph.some((p) => p.text !== 'fp')) return;
      if (d < SNIP_MIN - 1e-6 || d > SNIP_MAX + 1e-6) return;
      const words = (a: number, b: number) =>
        toks
          .slice(Math.max(0, a), b)
          .map((x) => x.text)
          .join(' ');
      const sn = { speaker: def.speaker, wavPath: def.wav, alignCommit: ac.commit, alignLabel: ac.label };
      found.push({ ...sn, start: t.start, end: t.end, pcm: pcm.slice(at(t.start), at(t.end)) });
      console.log(
        `filler ${def.speaker} ${def.wav} ${spans([t])} (${f3(d)} s, ${ac.label} ${ac.commit.slice(0, 8)}): ` +
          `${words(k - 2, k)} [${t.text}] ${words(k + 1, k + 3)}`.trim(),
      );
    });
    if (found.length) return found;
  }
  throw new Error(`${def.speaker}: no aligned euh of ${SNIP_MIN}-${SNIP_MAX} s`);
}

/** The snippet at the host's speech level (peak-limited), with raised-cosine fades. */
function levelled(sn: Snippet, host: Host): { x: Float32Array; gain: number; limited: string } {
  const want = host.speechRms / rms(sn.pcm);
  const peakIn = sn.pcm.reduce((m, q) => Math.max(m, Math.abs(q)), 0);
  const gain = Math.min(want, PEAK_MAX / peakIn);
  const limited =
    gain < want ? `, peak-limited: ${(-db(gain / want)).toFixed(1)} dB under the speech level` : '';
  const x = sn.pcm.map((s) => s * gain);
  const fade = at(FADE_S);
  for (let i = 0; i < fade; i++) {
    const w = 0.5 - 0.5 * Math.cos((Math.PI * i) / fade);
    x[i] *= w;
    x[x.length - 1 - i] *= w;
  }
  return { x, gain, limited };
}

// ---------------------------------------------------------------------------------------------
// clips

/** One version of a segment with a snippet in each of its pauses; problems found are pushed. */
function spliceClip(seg: Segment, snippets: Snippet[], id: string, problems: string[]) {
  const h = seg.host;
  const pieces: Float32Array[] = [];
  const times: number[] = [];
  const notes: string[] = [];
  let len = 0;
  let from = at(seg.start);
  seg.pauses.forEach((p, q) => {
    const sn = snippets[q];
    const { x, gain, limited } = levelled(sn, h);
    const cutA = at(p.start + PAD);
    const resume = at(p.end - PAD);
    pieces.push(h.pcm.subarray(from, cutA), x);
    len += cutA - from;
    times.push(len / RATE);
    len += x.length;
    from = resume;
    const dur = sn.end - sn.start;
    const pads = [rms(h.pcm, at(p.start), cutA), rms(h.pcm, resume, at(p.end))].map(
      (v) => db(v) - db(h.speechRms),
    );
    let phoneCheck = '';
    if (h.phones) {
      const label = (t: number): string => h.phones!.find((ph) => ph.start <= t && t < ph.end)?.text ?? '?';
      const [la, lb] = [label(p.start + PAD), label(p.end - PAD)];
      const ok = isPauseLabel(la) && isPauseLabel(lb);
      phoneCheck = ` phones at cut points ${JSON.stringify(la)}/${JSON.stringify(lb)} ${ok ? 'ok' : 'IN A PHONE'}`;
      if (!ok)
        problems.push(
          `${id}: splice ${f3(p.start + PAD)}/${f3(p.end - PAD)} of ${h.stem} not in an aligned pause (${la}/${lb})`,
        );
    }
    if (dur < SNIP_MIN - 1e-6 || dur > SNIP_MAX + 1e-6) problems.push(`${id}: snippet ${dur} s`);
    const peak = x.reduce((m, s) => Math.max(m, Math.abs(s)), 0);
    if (peak > 0.99) problems.push(`${id}: snippet peak ${peak.toFixed(2)} clips`);
    console.log(
      `  ${id} uh@${f3(times[q])}: ${sn.speaker} ${spans([sn])} (${f3(dur)} s) rms ${db(rms(sn.pcm)).toFixed(1)} -> ${db(rms(x)).toFixed(1)} dBFS (host speech ${db(h.speechRms).toFixed(1)}), peak ${db(peak).toFixed(1)} dBFS${limited}; host pause ${spans([p])} (${f3(p.end - p.start)} s), pads ${pads.map((v) => v.toFixed(1)).join('/')} dB re speech;${phoneCheck}`,
    );
    const align = `${sn.alignLabel} palign${sn.alignCommit === C_MIR ? '' : ` @${sn.alignCommit.slice(0, 8)}`}`;
    const g = db(gain);
    notes.push(
      `uh@${f3(times[q])}s = ${sn.speaker} ${FILLER_REPO}@${C_MIR.slice(0, 8)}:${sn.wavPath} ${f3(sn.start)}-${f3(sn.end)}s (${align}, gain ${g >= 0 ? '+' : ''}${g.toFixed(1)} dB${limited}) in host pause ${f3(p.start)}-${f3(p.end)}s`,
    );
  });
  const end = Math.min(at(seg.end), h.pcm.length);
  pieces.push(h.pcm.subarray(from, end));
  len += end - from;
  const pcm = new Float32Array(len);
  let o = 0;
  for (const piece of pieces) {
    pcm.set(piece, o);
    o += piece.length;
  }
  return { pcm, pieces, times, notes };
}

/** The written FLAC read back: its length, and each snippet's energy at its listed time. */
function checkWritten(path: string, id: string, c: ReturnType<typeof spliceClip>, problems: string[]): void {
  const back = decodeF32(path);
  if (back.length !== c.pcm.length)
    problems.push(`${id}: FLAC has ${back.length} samples, expected ${c.pcm.length}`);
  c.times.forEach((t, q) => {
    const snippet = c.pieces[2 * q + 1];
    const [want, got] = [db(rms(snippet)), db(rms(back, at(t), at(t) + snippet.length))];
    if (Math.abs(want - got) > 0.2) problems.push(`${id}: snippet ${q} not at ${t} (${want} vs ${got})`);
  });
}

function main(): void {
  const run = cli('spliced-en');
  const [hostRepo, fillerRepo] = [run.repo(HOST_REPO), run.repo(FILLER_REPO)];
  const hosts = HOSTS.map((h) => loadHost(hostRepo, fillerRepo, h));
  const pool = new Map(FILLERS.map((f) => [f.speaker, loadFillers(fillerRepo, f)]));
  const stage = startSet(run.out, ['en']);
  const rows: Array<Row & { part: string }> = [];
  const problems: string[] = [];
  for (const part of ['tune', 'heldout'] as Part[]) {
    const speakers = FILLERS.filter((f) => f.part === part).map((f) => f.speaker);
    const segs = hosts.filter((h) => h.def.part === part).flatMap(segments);
    const uses = new Map<string, number>(speakers.map((s) => [s, 0]));
    for (const seg of segs)
      console.log(
        `segment ${seg.host.stem} c${seg.index}: ${spans([seg])} s, ${seg.ipus.length} IPUs, ${seg.pauses.length} splice pauses`,
      );
    let hes = 0;
    let minutes = 0;
    for (let v = 0; v < VERSIONS; v++) {
      let j = 0;
      for (const seg of segs) {
        const h = seg.host;
        const id = `${h.stem}_c${seg.index}_v${v + 1}`;
        const snippets = seg.pauses.map(() => {
          const spk = speakers[(j++ + v) % speakers.length];
          const k = uses.get(spk)!;
          uses.set(spk, k + 1);
          return pool.get(spk)![k % pool.get(spk)!.length];
        });
        const clip = spliceClip(seg, snippets, id, problems);
        const file = `en/${id}.flac`;
        writeFlac(clip.pcm, join(stage, file));
        checkWritten(join(stage, file), id, clip, problems);
        if (!clip.times.length) problems.push(`${id}: no hesitation`);
        hes += clip.times.length;
        minutes += clip.pcm.length / RATE / 60;
        rows.push({
          file,
          language: 'en',
          speaker: h.def.speaker,
          duration_s: f3(clip.pcm.length / RATE),
          source_repo: HOST_REPO,
          source_path: h.def.wav,
          source_commit: h.def.commit,
          start_s: f3(seg.start),
          end_s: f3(seg.end),
          license: 'GPL-3.0',
          reference_transcript: seg.ipus.map((iv) => iv.text).join(' uh '),
          fluent: 'no',
          hesitation_times: clip.times.map(f3).join(';'),
          notes: `version ${v + 1} of ${VERSIONS} of clip ${seg.index} of ${h.stem}; ${clip.notes.join(' | ')}; ${h.pauseSource}; transcript ${h.def.textgrid ?? h.def.txt}; splice = host to pause start + ${PAD} s, snippet, host from pause end - ${PAD} s`,
          part,
        });
      }
    }
    const clips = rows.filter((r) => r.part === part).length;
    const t = TARGET[part];
    console.log(`${part}: filler uses ${[...uses].map(([s, n]) => `${s}=${n}`).join(' ')}`);
    console.log(
      `${part}: ${clips} clips (target ${t.clips}), ${hes} hesitations (target ${t.hes}), ${minutes.toFixed(2)} min`,
    );
    if (clips !== t.clips || hes !== t.hes) problems.push(`${part}: counts differ from the targets`);
  }
  if (problems.length) {
    for (const p of problems) console.log(`PROBLEM ${p}`);
    throw new Error(`${problems.length} problems; the clips are left in ${stage}`);
  }
  finishSet(stage, run.out, 'part', rows);
  console.log(`written ${run.out} (${rows.length} clips); all checks passed`);
}

main();
