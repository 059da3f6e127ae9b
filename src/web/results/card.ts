/**
 * @module web/results/card
 * One summary card: a figure, its target, and whether it meets it.
 */
import { esc } from './format.js';

/** `good`: meets its target; `warn`: misses it; `info`: no target applies. */
export type Verdict = 'good' | 'warn' | 'info';
/** A card's HTML; `value` is HTML (it may carry `<small>` units), the rest is text. */
export const card = (id: string, label: string, value: string, target: string, verdict: Verdict, hint = '') =>
  `<li class="card ${verdict}" id="card-${id}"><span class="card-label">${esc(label)}</span><span class="card-value">${value}</span>` +
  `<span class="card-target">${verdict === 'good' ? '<span aria-hidden="true">✓ </span>' : verdict === 'warn' ? '<span aria-hidden="true">! </span>' : ''}${esc(target)}</span>${hint ? `<span class="card-hint">${esc(hint)}</span>` : ''}</li>`;
