/**
 * @module web/styles
 * The page's stylesheet (inlined with the CSP nonce). Light and dark, visible focus rings.
 */
export const STYLES = `
:root{color-scheme:light dark;--fg:#1b1f24;--bg:#f6f7f9;--panel:#fff;--mute:#5b636e;--line:#d5dae1;--acc:#0b57d0;--acc-fg:#fff;
--good:#1a7f37;--good-bg:#dafbe1;--warn:#9a6700;--warn-bg:#fff4d4;--filler:#ffd8a8;--pause:#a5b4c8;--long:#5b6b85;--pos:#1a7f37;--neg:#cf222e;--band:#c7dcfb;
--center:#34a853;--away:#f29900;--open:#7c3aed;--point:#db2777}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--panel:#161b22;--mute:#9aa4af;--line:#30363d;--acc:#4c8dff;--good:#3fb950;--good-bg:#12261a;--warn:#d29922;--warn-bg:#2b2111;--filler:#6b4a1f;--pause:#475569;--long:#94a3b8;--band:#1e3a5f}}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
header{display:flex;align-items:center;justify-content:space-between;gap:1rem;padding:.8rem 1.5rem;background:var(--panel);border-bottom:1px solid var(--line)}
header h1{font-size:1.15rem;margin:0}header nav a{color:var(--acc);margin-left:1rem}
main{max-width:1100px;margin:0 auto;padding:1rem 1.5rem 3rem}
.panel{background:var(--panel);border:1px solid var(--line);border-radius:10px;padding:1rem 1.2rem;margin:1rem 0}
.panel h2{font-size:1.05rem;margin:0 0 .6rem}
.row{display:flex;flex-wrap:wrap;gap:.6rem 1.2rem;align-items:center}
label{font-weight:500}
input[type=text],input[type=password],textarea,select{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:6px;padding:.4rem .55rem}
input[type=password],input[type=text]{min-width:18rem}
textarea{width:100%;min-height:4rem}
button{font:inherit;border-radius:6px;border:1px solid var(--line);background:var(--panel);color:var(--fg);padding:.4rem .9rem;cursor:pointer}
button.primary{background:var(--acc);border-color:var(--acc);color:var(--acc-fg);font-weight:600}
button:disabled{opacity:.55;cursor:not-allowed}
:focus-visible{outline:3px solid var(--acc);outline-offset:2px}
fieldset{border:1px solid var(--line);border-radius:8px;margin:.6rem 0;padding:.5rem .9rem}
legend{font-weight:600;padding:0 .3rem}
.drop{display:block;border:2px dashed var(--line);border-radius:10px;padding:1.4rem;text-align:center;cursor:pointer;background:var(--bg)}
.drop.over,.drop:focus-within{border-color:var(--acc)}
.drop strong{display:block;font-size:1.05rem}
.drop input{margin-top:.6rem}
.muted,.hint{color:var(--mute);font-size:.9em}
.hidden{display:none!important}
.history{list-style:none;padding:0;margin:0}.history li{display:flex;gap:.8rem;align-items:center;flex-wrap:wrap;padding:.3rem 0;border-bottom:1px solid var(--line)}.history code{font-size:.85em}
.progress-row{display:grid;grid-template-columns:7rem 1fr 3.5rem;gap:.6rem;align-items:center;margin:.3rem 0}
progress{width:100%;height:14px}
.error{border-left:4px solid var(--neg);background:var(--warn-bg);padding:.6rem .9rem;border-radius:6px}
.error code{font-size:.9em}
.player-wrap{max-width:640px;margin-bottom:1rem}
video{width:100%;border-radius:8px;background:#000;max-height:420px}
.cards{list-style:none;padding:0;margin:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(165px,1fr));gap:.6rem}
.card{border:1px solid var(--line);border-radius:10px;padding:.6rem .75rem;display:flex;flex-direction:column;gap:.1rem;background:var(--panel)}
.card.good{border-color:var(--good);background:var(--good-bg)}.card.warn{border-color:var(--warn);background:var(--warn-bg)}
.card-label{font-size:.82rem;color:var(--mute);text-transform:uppercase;letter-spacing:.03em}
.card-value{font-size:1.5rem;font-weight:650;line-height:1.2}.card-value small{font-size:.8rem;font-weight:500;color:var(--mute)}
.card-value .word-value{font-size:1.05rem;overflow-wrap:break-word}
.card-target{font-size:.85rem}.good .card-target{color:var(--good)}.warn .card-target{color:var(--warn)}
.card-hint{font-size:.8rem;color:var(--mute)}
.timeline-figure{margin:1rem 0 .5rem}.timeline-figure figcaption{font-weight:600;margin-bottom:.3rem}
.timeline{width:100%;height:auto;background:var(--panel);border:1px solid var(--line);border-radius:8px;cursor:pointer}
.timeline .lane-label{font-size:12px;fill:var(--mute)}.timeline .tick{stroke:var(--line);stroke-width:1}.timeline .tick-label{font-size:11px;fill:var(--mute);text-anchor:middle}
.timeline .band{fill:var(--band)}.timeline .pace{fill:none;stroke:var(--acc);stroke-width:2;vector-effect:non-scaling-stroke}
.timeline .pause{fill:var(--pause)}.timeline .pause.long{fill:var(--long)}.timeline .filler{fill:var(--filler);stroke:var(--warn);stroke-width:.5}
.timeline .quiet{fill:var(--long);opacity:.6}.timeline .repeat{fill:var(--filler);stroke:var(--acc);stroke-width:.5}
.timeline .axis{stroke:var(--line)}.timeline circle.positive{fill:var(--pos)}.timeline circle.negative{fill:var(--neg)}
.timeline .gaze-center{fill:var(--center)}.timeline .gaze-away{fill:var(--away)}.timeline .gesture-open{fill:var(--open)}.timeline .gesture-point{fill:var(--point)}
.timeline .playhead{stroke:var(--neg);stroke-width:2;vector-effect:non-scaling-stroke}
.legend{font-size:.82rem;color:var(--mute);display:flex;flex-wrap:wrap;gap:.2rem .7rem;align-items:center;margin:.4rem 0}
.key{display:inline-block;width:.9rem;height:.6rem;border-radius:2px;margin-right:.2rem;vertical-align:middle}
.k-pace{background:var(--acc)}.k-band{background:var(--band)}.k-pause{background:var(--pause)}.k-long{background:var(--long)}.k-filler{background:var(--filler)}.k-pos{background:var(--pos)}.k-neg{background:var(--neg)}
.k-quiet{background:var(--long);opacity:.6}.k-repeat{background:var(--filler);outline:1px solid var(--acc)}
.delivery-line{font-size:.85rem;color:var(--mute);margin:.2rem 0 .4rem}
.k-center{background:var(--center)}.k-away{background:var(--away)}.k-open{background:var(--open)}.k-point{background:var(--point)}
.transcript{font-size:1.05rem;line-height:2;max-height:22rem;overflow:auto;padding:.4rem .2rem}
.transcript .w{cursor:pointer;border-radius:3px;padding:0 .05rem}.transcript .w:hover{background:var(--band)}
.transcript .w.current{background:var(--acc);color:var(--acc-fg)}
mark{background:var(--filler);color:inherit;border-radius:3px;padding:0 .15rem}
.positive{color:var(--pos);font-weight:600}.negative{color:var(--neg);font-weight:600}
.pause-mark{font-size:.78rem;border:1px solid var(--pause);border-radius:999px;padding:0 .45rem;background:transparent;color:var(--mute);line-height:1.5}
.pause-mark.long{border-color:var(--long);background:var(--long);color:#fff}
.grid2{display:grid;grid-template-columns:repeat(auto-fit,minmax(260px,1fr));gap:1rem}
table{border-collapse:collapse;width:100%;font-size:.9rem}th,td{text-align:left;padding:.25rem .4rem;border-bottom:1px solid var(--line)}
.bars th{width:40%;font-weight:500}.bars td.num,.sync td.num{text-align:right;white-space:nowrap}
.bar{width:100%;height:10px}.bar rect{fill:var(--acc)}
.warnings{border-left:4px solid var(--warn);background:var(--warn-bg);padding:.5rem .9rem;border-radius:6px;margin-bottom:.8rem}.warnings ul{margin:.2rem 0 0;padding-left:1.2rem}
.raw pre{max-height:20rem;overflow:auto;font-size:.8rem;background:var(--bg);padding:.6rem;border-radius:6px}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);border:0}
`;
