/**
 * @module bench/support/service-procs
 * The processes of a running `npm start` service, found in /proc: workerd, the media container
 * service and its children (ffmpeg, vision workers, the Whisper worker, Python engines), only those
 * started from `root` (the machine may run other checkouts' services).
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** `wrangler`: the dev server's own Node process (its CPU matters; its memory is not the service's). */
export type ServicePart = 'workerd' | 'wrangler' | 'media';

export interface ServiceProcess {
  pid: string;
  part: ServicePart;
  /** What the process does, for the per-process CPU table. */
  role: string;
}

const PART_OF: Array<[RegExp, ServicePart]> = [
  [/workerd/, 'workerd'],
  [/wrangler/, 'wrangler'],
  [/containers\/media|engines\/vision\/worker|ffmpeg|pocketsphinx|asr_worker|python|espeak|piper/, 'media'],
];

/** The role of a service process from its command line (NUL-separated, as /proc gives it). */
export function processRole(cmdline: string): string {
  const cmd = cmdline.replace(/\0/g, ' ');
  if (/workerd/.test(cmd)) return 'workerd';
  if (/wrangler/.test(cmd)) return 'wrangler (node)';
  // Debian's `ffmpeg` or the environment's `ffmpeg-linux-x86_64-v9.0.2` (containers/media/core/venv.ts).
  if (/(^|\/)ffmpeg(-[^ /]*)? /.test(cmd)) return 'ffmpeg';
  if (/segmenter-process/.test(cmd)) return 'segmenter';
  if (/engines\/vision\/worker/.test(cmd)) return 'vision worker';
  if (/asr_worker|pocketsphinx/.test(cmd)) return 'speech recognition';
  if (/align_worker/.test(cmd)) return 'forced alignment';
  if (/espeak|piper/.test(cmd)) return 'speech synthesis';
  if (/python/.test(cmd)) return 'python engine';
  return 'media service (node)';
}

/** Every live process of the service started from `root`. */
export function serviceProcesses(root: string): ServiceProcess[] {
  const prefix = root.replace(/\/$/, '');
  const found: ServiceProcess[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      const part = PART_OF.find(([re]) => re.test(cmd))?.[1];
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      // Not a sibling checkout whose path merely starts the same (/work/wt-a vs /work/wt-ab).
      if (!part || (cwd !== prefix && !cwd.startsWith(`${prefix}/`))) continue;
      found.push({ pid, part, role: processRole(cmd) });
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return found;
}
