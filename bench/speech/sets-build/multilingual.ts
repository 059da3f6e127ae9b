/**
 * @module bench/speech/sets-build/multilingual
 * Builds the `multilingual` set (docs/speech-sets.md): real de/es/fr/it/pt recordings of 3–20 s
 * with the transcripts their repositories ship. Built from the snapshots (HEAD at the build):
 * - Picovoice/leopard f0d80c61f03f6438c1ff89d98b62b95796d27003,
 *   Picovoice/cheetah 83c2b51ae8648d21bb3abdb7fa18045a6bf1216d (their whole history);
 * - thorstenMueller/Thorsten-Voice c55dfd986fdab5fedd1ab97692ee2bdce6e832c2 (its whole history);
 * - falabrasil/kaldi-br 5b9c5c81aa879a8427786b45a498b1834df98e6e, falabrasil/ufpalign
 *   15713ad583a94804cae59358b8d744a3492499b3 (HEAD);
 * - brigittebigi/sppas 8366210de1a314fe796245ce3b82bc585b72e42f, mirfan899/sppas
 *   c0e5932cc1e16bfcafc48f70f71db75d670a5de2 (every branch and tag tip).
 *
 *   npx tsx bench/speech/sets-build/multilingual.ts [--out DIR] [--ag-style read|spontaneous]
 *     [--mirror-root /work/.mirror] [--repo owner/name=GITDIR ...]
 *
 * Rules, and why:
 * - Picovoice `resources/audio_samples/test_<lang>*.wav`: every version in the history, as the
 *   test clips were replaced by other recordings over time, so the history holds more real clips
 *   than any one commit; each with the transcript of `test_data.json` at the commit that first
 *   has it. The same audio under another rate or blob (re-encoded, or copied between the two
 *   repositories) is kept once, the first version seen.
 * - Thorsten-Voice: `samples/original_recording/*.wav` with the README's link texts (the newest
 *   commit that has both), `LJSpeech-1.1/*.wav` with `LJSpeech-1.1/metadata.csv`.
 * - FalaBrasil: every wav with a `.txt` transcript beside it.
 * - SPPAS `samples/samples-{fra,fraquebec,deu,spa,ita,por}`: the union over both repositories'
 *   tips (branches, tags and the fork hold different samples), one copy per audio blob (the
 *   newest tip's), with the first tier of the TextGrid beside it. Long files are cut into clips of
 *   whole inter-pausal units (IPU), so no cut falls inside a word: a clip closes once it holds
 *   2.5 s of speech, at the middle of the next pause; a rest under 2.5 s joins the clip before;
 *   the first clip starts where the speech does, the last ends in the middle of the final pause.
 * - French CID hesitation times: the starts of the hesitation tokens of the SPPAS 1.9.9 alignment
 *   in mirfan899/sppas `samples/annotation-results/samples-fra/<name>-palign.xra`.
 * - Clips outside 3–20 s are dropped (the set's clip length): a whole sentence or more, and well
 *   inside one 30 s Whisper window.
 */
import { join, posix } from 'node:path';
import { isHesitationIn } from '../score.js';
import { correlation, decodeS16, RATE, writeFlac } from './audio.js';
import { cleanSppas, countHesitations, decodeText, findTier, parseTextGrid, parseXra } from './annotation.js';
import { cli, finishSet, startSet, type Row } from './cli.js';
import type { Repo } from './git.js';

const run = cli('multilingual');
/**
 * The style of SPPAS `AG_éàç_0460` (a CID conversation extract like the `*_track_*` files). The
 * set was first described (read 59 clips / 14 speakers / 58 fluent; spontaneous 19 / 15 / 9) with
 * this file under `read`: the only CID one whose name lacks `_track_`. `--ag-style spontaneous`
 * labels it as what it is.
 */
const AG_STYLE = (run.option('--ag-style') ?? 'read') as Clip['style'];
const MIN_SEC = 3;
const MAX_SEC = 20;
/** A SPPAS cut closes once it holds this much speech. */
const CUT_SPEECH_SEC = 2.5;
const LANGS = ['de', 'es', 'fr', 'it', 'pt'];

interface Clip {
  id: string;
  language: string;
  speaker: string;
  repo: Repo;
  path: string;
  commit: string;
  /** Seconds in the source file, for cuts. */
  cut?: { start: number; end: number };
  license: string;
  reference: string;
  hesitationTimes?: number[];
  notes: string;
  style: 'read' | 'spontaneous';
  /** Source label for the summary. */
  source: string;
  pcm?: Int16Array;
}

const clips: Clip[] = [];
const dropped: string[] = [];
const inRange = (sec: number) => sec >= MIN_SEC && sec <= MAX_SEC;

// ---------------------------------------------------------------------------------------------
// Picovoice leopard / cheetah

interface PicoVersion {
  repo: Repo;
  commit: string;
  time: number;
  path: string;
  blob: string;
}

/**
 * The `transcript` beside `audio_file` wherever it stands in a test_data.json: its layout and place
 * differ between the two repositories and over time.
 */
function findTranscript(o: unknown, audioFile: string): string | undefined {
  if (!o || typeof o !== 'object') return undefined;
  const r = o as Record<string, unknown>;
  if (!Array.isArray(o) && r.audio_file === audioFile && typeof r.transcript === 'string')
    return r.transcript;
  for (const v of Object.values(r)) {
    const t = findTranscript(v, audioFile);
    if (t !== undefined) return t;
  }
  return undefined;
}

function picovoiceTranscript(v: PicoVersion): { text: string; file: string } | undefined {
  const files = v.repo
    .lsTree(v.commit, 'resources')
    .map((e) => e.path)
    .filter((p) => p.endsWith('test_data.json'));
  for (const f of files) {
    try {
      const t = findTranscript(JSON.parse(v.repo.show(v.commit, f).toString('utf8')), posix.basename(v.path));
      if (t !== undefined) return { text: t, file: f };
    } catch {
      // unreadable JSON at that commit
    }
  }
  return undefined;
}

/** Every version (blob) of a test clip in the history of `r`, with the commits that add it. */
function picovoiceVersions(r: Repo, into: Map<string, PicoVersion[]>): void {
  let commit = '';
  let time = 0;
  const log = r.text([
    'log',
    '--all',
    '--format=C %H %ct',
    '--raw',
    '--no-abbrev',
    '--',
    'resources/audio_samples',
  ]);
  for (const line of log.split('\n')) {
    if (line.startsWith('C ')) {
      [, commit] = line.split(' ');
      time = Number(line.split(' ')[2]);
    } else if (line.startsWith(':')) {
      const [meta, ...paths] = line.split('\t');
      const [, , , blob, status] = meta.split(' ');
      const path = paths[paths.length - 1];
      if (status.startsWith('D') || !/^test_(de|es|fr|it|pt)(?:_[a-z0-9]+)?\.wav$/.test(posix.basename(path)))
        continue;
      into.set(blob, [...(into.get(blob) ?? []), { repo: r, commit, time, path, blob }]);
    }
  }
}

function addPicovoice(): void {
  const repos = [run.repo('Picovoice/leopard'), run.repo('Picovoice/cheetah')];
  const versions = new Map<string, PicoVersion[]>();
  for (const r of repos) picovoiceVersions(r, versions);
  const order = (a: PicoVersion, b: PicoVersion) =>
    a.time - b.time || repos.indexOf(a.repo) - repos.indexOf(b.repo) || a.commit.localeCompare(b.commit);
  const firsts = [...versions.values()].map((vs) => vs.sort(order)).sort((a, b) => order(a[0], b[0]));
  const kept: Array<{ clip: Clip; pcm: Int16Array; also: string[] }> = [];
  for (const vs of firsts) {
    const v = vs[0];
    const lang = /^test_([a-z]{2})/.exec(posix.basename(v.path))![1];
    const short = v.repo.name.split('/')[1];
    const id = `${short}_${posix.basename(v.path, '.wav')}_${v.blob.slice(0, 8)}`;
    if (!v.repo.has(v.commit, v.path)) {
      dropped.push(`${id}: audio not in the snapshot`);
      continue;
    }
    const pcm = decodeS16(v.repo.show(v.commit, v.path));
    const dup = kept.find(
      (k) =>
        k.clip.language === lang &&
        Math.abs(k.pcm.length - pcm.length) <= 1 &&
        correlation(k.pcm, pcm) >= 0.999,
    );
    if (dup) {
      dup.also.push(`${short}@${v.commit.slice(0, 7)} ${posix.basename(v.path)} ${v.blob.slice(0, 8)}`);
      continue;
    }
    const tr = vs.map((x) => ({ x, t: picovoiceTranscript(x) })).find((r) => r.t);
    if (!tr?.t) {
      dropped.push(`${id}: no test_data.json transcript`);
      continue;
    }
    if (!inRange(pcm.length / RATE)) {
      dropped.push(`${id}: ${(pcm.length / RATE).toFixed(2)} s`);
      continue;
    }
    const first = new Date(tr.x.time * 1000).toISOString().slice(0, 10);
    const clip: Clip = {
      id,
      language: lang,
      speaker: `picovoice_${lang}`,
      repo: tr.x.repo,
      path: tr.x.path,
      commit: tr.x.commit,
      license: 'Apache-2.0',
      reference: tr.t.text,
      notes: `Picovoice test clip, the version first seen at ${first} (blob ${v.blob.slice(0, 8)}); transcript from ${tr.t.file} at the same commit; speaker unknown (one per language)`,
      style: 'read',
      source: 'Picovoice',
      pcm,
    };
    kept.push({ clip, pcm, also: [] });
  }
  for (const k of kept) {
    if (k.also.length) k.clip.notes += `; the same audio also as ${k.also.join(', ')}`;
    clips.push(k.clip);
  }
}

// ---------------------------------------------------------------------------------------------
// Thorsten-Voice

function addThorsten(): void {
  const r = run.repo('thorstenMueller/Thorsten-Voice');
  const commits = r.text(['rev-list', '--all', '--date-order']).split('\n').filter(Boolean);
  const base = { language: 'de', speaker: 'thorsten', repo: r, license: 'CC0-1.0', style: 'read' as const };
  const add = (id: string, path: string, commit: string, reference: string, notes: string) =>
    clips.push({ ...base, id, path, commit, reference, notes, source: 'Thorsten-Voice' });
  // the recorded samples that the README links with their sentence as the link text
  for (const c of commits) {
    if (!r.has(c, 'README.md')) continue;
    const readme = r.show(c, 'README.md').toString('utf8');
    const links = [
      ...readme.matchAll(/\[([^\]]+)\]\(\s*(?:\.\/)?(samples\/original_recording\/[^)\s]+\.wav)\s*\)/g),
    ];
    if (!links.length || !links.every((m) => r.has(c, m[2]))) continue;
    const notes = 'Thorsten-Voice original recording; transcript = the README link text at the same commit';
    for (const [, text, path] of links)
      add(`thorsten_${posix.basename(path, '.wav')}`, path, c, text.trim(), notes);
    break;
  }
  for (const c of commits) {
    if (!r.has(c, 'LJSpeech-1.1/metadata.csv')) continue;
    const meta = new Map<string, string>();
    for (const line of r.show(c, 'LJSpeech-1.1/metadata.csv').toString('utf8').split(/\r?\n/)) {
      const [id, text] = line.split('|');
      if (id && text) meta.set(id, text.trim());
    }
    const notes = 'Thorsten-Voice dataset sample; transcript = LJSpeech-1.1/metadata.csv at the same commit';
    for (const { path } of r.lsTree(c, 'LJSpeech-1.1').filter((x) => x.path.endsWith('.wav'))) {
      const id = posix.basename(path, '.wav');
      const reference = meta.get(id);
      if (reference) add(`thorsten_ljspeech_${id.slice(0, 8)}`, path, c, reference, notes);
      else dropped.push(`thorsten ${path}: not in metadata.csv`);
    }
    break;
  }
}

// ---------------------------------------------------------------------------------------------
// FalaBrasil

function addFalaBrasil(): void {
  const specs: Array<{ name: string; under: (p: string) => boolean; source: string }> = [
    {
      name: 'falabrasil/kaldi-br',
      under: (p) => /(^|\/)examples\//.test(p),
      source: 'FalaBrasil LapsBM examples',
    },
    { name: 'falabrasil/ufpalign', under: (p) => p.startsWith('demo/'), source: 'FalaBrasil ufpalign demo' },
  ];
  for (const s of specs) {
    const r = run.repo(s.name);
    const head = r.commit();
    const short = s.name.split('/')[1];
    const files = r.lsTree(head).map((e) => e.path);
    for (const wav of files.filter((p) => s.under(p) && p.endsWith('.wav'))) {
      const txt = wav.replace(/\.wav$/, '.txt');
      const stem = posix.basename(wav, '.wav');
      const lapsbm = /^LapsBM_/.test(stem);
      const prefix = lapsbm ? 'lapsbm' : short.replace(/[^a-z0-9]/gi, '').toLowerCase();
      const id = `${prefix}_${(lapsbm ? stem.slice(7) : stem).toLowerCase().replace(/[^a-z0-9]+/g, '')}`;
      if (!files.includes(txt)) continue;
      if (!r.has(head, wav)) {
        dropped.push(`${id}: audio not in the snapshot (stored over 4 MiB)`);
        continue;
      }
      clips.push({
        id,
        language: 'pt',
        speaker: lapsbm ? 'lapsbm_examples' : `${short}_${stem.toLowerCase()}`,
        repo: r,
        path: wav,
        commit: head,
        license: 'MIT',
        reference: r.show(head, txt).toString('utf8').replace(/\s+/g, ' ').trim(),
        notes: `${s.source}; transcript = ${posix.basename(txt)} beside the clip${lapsbm ? '; LapsBM speakers not named in the repository (counted as one)' : ''}`,
        style: 'read',
        source: s.source,
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// SPPAS samples

const SPPAS_DIRS: Record<string, string> = {
  'samples-fra': 'fr',
  'samples-fraquebec': 'fr',
  'samples-deu': 'de',
  'samples-spa': 'es',
  'samples-ita': 'it',
  'samples-por': 'pt',
};
const SPPAS_SOURCE: Record<string, string> = {
  cid: 'SPPAS CID',
  pfc: 'SPPAS PFC Quebec',
  maptask: 'SPPAS map task',
  read: 'SPPAS read',
};

interface SppasFile {
  repo: Repo;
  commit: string;
  ref: string;
  time: number;
  path: string;
}

/** Corpus, speaker and style of a SPPAS sample, from its folder and name. */
function sppasKind(dir: string, stem: string) {
  const kind = (corpus: string, speaker: string, style: Clip['style'], what: string) => ({
    corpus,
    speaker,
    style,
    what,
  });
  const cid = /^([A-Z]{2})[ _](?:track|éàç)_/.exec(stem);
  if (dir === 'samples-fraquebec') {
    const spk = /_(CQ[A-Z0-9]+)$/i.exec(stem)?.[1] ?? stem;
    return kind('pfc', `pfc_${spk}`, 'spontaneous', 'PFC Quebec French interview');
  }
  if (dir === 'samples-fra' && cid) {
    const style = /[ _]track_/.test(stem) ? 'spontaneous' : AG_STYLE;
    return kind('cid', `cid_${cid[1]}`, style, 'CID conversation extract');
  }
  if (dir === 'samples-fra') {
    const spk = /^[A-Z]_[A-Z]_([A-Z]\d+)/.exec(stem)?.[1] ?? stem;
    return kind('read', `sppas_${spk}`, 'read', 'read passage');
  }
  if (dir === 'samples-ita' && /^DG/.test(stem)) {
    const spk = /^([A-Za-z0-9]+?p\d)/.exec(stem)?.[1] ?? stem;
    return kind('maptask', `clips_${spk}`, 'spontaneous', 'CLIPS map-task dialogue extract');
  }
  const spk = /^([A-Z]{3}_[FM]\d+)/.exec(stem)?.[1] ?? stem;
  return kind('read', `sppas_${spk}`, 'read', 'read passage');
}

/** Hesitation token starts of the SPPAS 1.9.9 alignment shipped in mirfan899/sppas. */
function alignmentHesitations(m: Repo, stem: string, lang: string): number[] | undefined {
  const head = m.commit();
  const path = `samples/annotation-results/samples-fra/${stem}-palign.xra`;
  if (!m.has(head, path)) return undefined;
  const tokens = findTier(parseXra(m.show(head, path).toString('utf8')), 'TokensAlign');
  return tokens?.items
    .filter((a) => a.tags!.some((t) => isHesitationIn(t.replace(/[{}]/g, '').split('|')[0], lang)))
    .map((a) => a.start);
}

/** The SPPAS sample recordings of every tip of `repos`, one per audio blob (the newest tip's). */
function sppasFiles(repos: Repo[]): SppasFile[] {
  const byBlob = new Map<string, SppasFile>();
  for (const r of repos)
    for (const tip of r.refTips())
      for (const e of r.lsTree(tip.commit, 'samples')) {
        const parts = e.path.split('/');
        if (parts.length !== 3 || !SPPAS_DIRS[parts[1]] || !/\.wav$/i.test(e.path)) continue;
        const cur = byBlob.get(e.blob);
        if (!cur || tip.time > cur.time) byBlob.set(e.blob, { repo: r, ...tip, path: e.path });
      }
  return [...byBlob.values()].sort((a, b) => a.path.localeCompare(b.path));
}

/** Whole IPUs grouped: a group closes once it holds CUT_SPEECH_SEC of speech; a shorter rest joins the one before. */
function groupIpus<T extends { start: number; end: number }>(ipus: T[]): T[][] {
  const groups: T[][] = [];
  let cur: T[] = [];
  let speech = 0;
  for (const ipu of ipus) {
    cur.push(ipu);
    speech += ipu.end - ipu.start;
    if (speech >= CUT_SPEECH_SEC) {
      groups.push(cur);
      cur = [];
      speech = 0;
    }
  }
  if (cur.length) {
    if (groups.length) groups[groups.length - 1].push(...cur);
    else groups.push(cur);
  }
  return groups;
}

function addSppas(): void {
  const mirfan = run.repo('mirfan899/sppas');
  const counters = new Map<string, number>();
  for (const f of sppasFiles([run.repo('brigittebigi/sppas'), mirfan])) {
    const dir = f.path.split('/')[1];
    const lang = SPPAS_DIRS[dir];
    const stem = posix.basename(f.path).replace(/\.wav$/i, '');
    const tgPath = posix.join(posix.dirname(f.path), `${stem}.TextGrid`);
    if (!f.repo.has(f.commit, tgPath)) {
      dropped.push(`SPPAS ${f.path}: no TextGrid`);
      continue;
    }
    const tier = parseTextGrid(decodeText(f.repo.show(f.commit, tgPath))).find(
      (t) => t.kind === 'IntervalTier',
    );
    const fileSec = decodeS16(f.repo.show(f.commit, f.path)).length / RATE;
    const end = Math.min(fileSec, tier ? Math.max(...tier.items.map((i) => i.end)) : fileSec);
    const ipus = (tier?.items ?? [])
      .map((i) => ({ ...i, words: cleanSppas(i.text, lang) }))
      .filter((i) => i.words && i.end > i.start);
    if (!tier || !ipus.length) {
      dropped.push(`SPPAS ${f.path}: no words in the first tier (${tier?.name ?? 'none'})`);
      continue;
    }
    const groups = groupIpus(ipus);
    const kind = sppasKind(dir, stem);
    const hes = kind.corpus === 'cid' ? alignmentHesitations(mirfan, stem, lang) : undefined;
    groups.forEach((g, gi) => {
      const first = g[0];
      const last = g[g.length - 1];
      const start =
        gi === 0 ? first.start : (groups[gi - 1][groups[gi - 1].length - 1].end + first.start) / 2;
      const stop = gi === groups.length - 1 ? (last.end + end) / 2 : (last.end + groups[gi + 1][0].start) / 2;
      const whole = start <= 1e-6 && stop >= end - 1e-6;
      const key = `${kind.corpus}_${kind.speaker}`;
      const n = (counters.get(key) ?? 0) + 1;
      const who = kind.speaker.replace(/^(cid|pfc|clips|sppas)_/, '').toLowerCase();
      const [i0, i1] = [ipus.indexOf(first) + 1, ipus.indexOf(last) + 1];
      const ipuIdx = `${i0 === i1 ? `IPU ${i0}` : `IPUs ${i0}–${i1}`} of ${ipus.length}`;
      if (!inRange(stop - start)) {
        dropped.push(`SPPAS ${f.path}${whole ? '' : ` ${ipuIdx}`}: ${(stop - start).toFixed(2)} s`);
        return;
      }
      counters.set(key, n);
      const times = hes
        ?.filter((t) => t >= start - 1e-6 && t < stop)
        .map((t) => Math.round((t - start) * 100) / 100);
      clips.push({
        id: `sppas_${kind.corpus}_${who}_${String(n).padStart(2, '0')}`,
        language: lang,
        speaker: kind.speaker,
        repo: f.repo,
        path: f.path,
        commit: f.commit,
        cut: whole ? undefined : { start, end: stop },
        license: 'GPL-3.0 (SPPAS samples/COPYRIGHT.txt)',
        reference: g.map((i) => i.words).join(' '),
        hesitationTimes: times?.length ? times : undefined,
        notes:
          `SPPAS ${kind.what} (${f.ref.replace(/^refs\/(heads|tags)\//, '')}); ` +
          (whole ? 'whole file' : `${ipuIdx} of the first tier, cut in the middle of the pauses`) +
          `; transcript = TextGrid tier "${tier.name}", markup cleaned` +
          (times?.length
            ? '; hesitation times from the SPPAS 1.9.9 alignment (mirfan899/sppas annotation-results)'
            : '') +
          (kind.corpus === 'cid' && kind.style === 'read'
            ? '; conversation labelled read as in the original set'
            : ''),
        style: kind.style,
        source: SPPAS_SOURCE[kind.corpus],
      });
    });
  }
}

// ---------------------------------------------------------------------------------------------
// main

addPicovoice();
addThorsten();
addFalaBrasil();
addSppas();

const stage = startSet(run.out, LANGS);
const ids = new Set<string>();
const rows: Array<Row & { style: string }> = [];
const final: Array<Clip & { sec: number; fluent: boolean }> = [];
clips.sort((a, b) => a.language.localeCompare(b.language) || a.id.localeCompare(b.id));
for (const c of clips) {
  if (ids.has(c.id)) throw new Error(`duplicate clip id ${c.id}`);
  ids.add(c.id);
  const pcm = c.pcm && !c.cut ? c.pcm : decodeS16(c.repo.show(c.commit, c.path), { cut: c.cut });
  const sec = pcm.length / RATE;
  if (!inRange(sec)) {
    dropped.push(`${c.id}: ${sec.toFixed(2)} s`);
    continue;
  }
  const file = `${c.language}/${c.id}.flac`;
  writeFlac(pcm, join(stage, file));
  const fluent = countHesitations(c.reference, c.language) === 0;
  final.push({ ...c, sec, fluent });
  rows.push({
    file,
    language: c.language,
    speaker: c.speaker,
    duration_s: sec.toFixed(3),
    source_repo: c.repo.name,
    source_path: c.path,
    source_commit: c.commit,
    start_s: c.cut?.start.toFixed(3) ?? '',
    end_s: c.cut?.end.toFixed(3) ?? '',
    license: c.license,
    reference_transcript: c.reference,
    fluent: fluent ? 'yes' : 'no',
    hesitation_times: c.hesitationTimes?.map((t) => t.toFixed(2)).join(';') ?? '',
    notes: c.notes,
    style: c.style,
  });
}
finishSet(stage, run.out, 'style', rows);

console.log(`\n${final.length} clips written to ${run.out}`);
console.log('| language | clips | speakers | minutes | fluent | sources |');
for (const l of LANGS) {
  const cs = final.filter((c) => c.language === l);
  const src = new Map<string, number>();
  for (const c of cs) src.set(c.source, (src.get(c.source) ?? 0) + 1);
  const minutes = (cs.reduce((s, c) => s + c.sec, 0) / 60).toFixed(2);
  const speakers = new Set(cs.map((c) => c.speaker)).size;
  const sources = [...src].map(([k, v]) => `${k} ${v}`).join(', ');
  console.log(
    `| ${l} | ${cs.length} | ${speakers} | ${minutes} | ${cs.filter((c) => c.fluent).length} | ${sources} |`,
  );
}
for (const st of ['read', 'spontaneous']) {
  const cs = final.filter((c) => c.style === st);
  const speakers = new Set(cs.map((c) => c.speaker)).size;
  console.log(
    `${st.padEnd(12)} clips ${cs.length}, speakers ${speakers}, fluent ${cs.filter((c) => c.fluent).length}`,
  );
}
const fr = final.filter((c) => c.language === 'fr' && !c.fluent);
const timed = fr.reduce((s, c) => s + (c.hesitationTimes?.length ?? 0), 0);
const untimed = fr
  .filter((c) => !c.hesitationTimes)
  .reduce((s, c) => s + countHesitations(c.reference, 'fr'), 0);
const frSpeakers = new Set(fr.map((c) => c.speaker)).size;
console.log(
  `fr clips with hesitations ${fr.length} (${frSpeakers} speakers): ${timed} timed + ${untimed} untimed`,
);
console.log(`\ndropped (${dropped.length}):\n  ${dropped.join('\n  ')}`);
