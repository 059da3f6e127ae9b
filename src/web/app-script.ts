/**
 * @module web/app-script
 * The page's behaviour, as plain browser JavaScript (no build step): key storage, file drop,
 * upload with XHR progress, status polling with backoff, results wiring (seek and playhead).
 * It uses `ResultsRenderer` (embedded from `web/results.ts`) to draw the analysis.
 */
export const APP_SCRIPT = String.raw`
(function () {
  'use strict';
  var KEY_STORAGE = 'video-api-key';
  var $ = function (id) { return document.getElementById(id); };
  var state = { file: null, objectUrl: null, polling: null };

  // ---- API key -------------------------------------------------------------
  var keyInput = $('api-key');
  function savedKey() { try { return localStorage.getItem(KEY_STORAGE) || ''; } catch (e) { return ''; } }
  keyInput.value = savedKey();
  function showKeyStatus() { $('key-status').textContent = savedKey() ? 'A key is saved in this browser.' : 'No key saved yet.'; }
  showKeyStatus();
  $('key-form').addEventListener('submit', function (e) {
    e.preventDefault();
    var v = keyInput.value.trim();
    if (!v) { keyInput.focus(); return; }
    try { localStorage.setItem(KEY_STORAGE, v); } catch (err) { /* private mode: keep it in the field */ }
    $('key-status').textContent = 'Key saved.';
  });
  $('forget-key').addEventListener('click', function () {
    try { localStorage.removeItem(KEY_STORAGE); } catch (err) {}
    keyInput.value = '';
    showKeyStatus();
    keyInput.focus();
  });
  function apiKey() { return keyInput.value.trim() || savedKey(); }

  // ---- file choice and drop -------------------------------------------------
  var drop = $('drop');
  var fileInput = $('file');
  function setFile(f) {
    state.file = f || null;
    $('file-name').textContent = f ? 'Selected: ' + f.name + ' (' + formatBytes(f.size) + ')' : '';
  }
  fileInput.addEventListener('change', function () { setFile(fileInput.files[0]); });
  ['dragenter', 'dragover'].forEach(function (t) {
    drop.addEventListener(t, function (e) { e.preventDefault(); drop.classList.add('over'); });
  });
  ['dragleave', 'drop'].forEach(function (t) {
    drop.addEventListener(t, function () { drop.classList.remove('over'); });
  });
  drop.addEventListener('drop', function (e) {
    e.preventDefault();
    if (e.dataTransfer && e.dataTransfer.files.length) setFile(e.dataTransfer.files[0]);
  });

  // ---- options ---------------------------------------------------------------
  function mode() { return document.querySelector('input[name=mode]:checked').value; }
  function syncOptions() {
    var isProcess = mode() === 'process';
    $('process-options').classList.toggle('hidden', !isProcess);
    $('analyze-options').classList.toggle('hidden', isProcess);
    var vg = $('voice-generator').value;
    $('voice-id').disabled = vg !== '1';
    $('audio').disabled = vg !== '2';
    $('description').disabled = vg === '2';
  }
  document.querySelectorAll('input[name=mode]').forEach(function (r) { r.addEventListener('change', syncOptions); });
  $('voice-generator').addEventListener('change', syncOptions);
  syncOptions();

  function buildForm() {
    var fd = new FormData();
    if (mode() === 'analyze') {
      if (!state.file) throw new Error('Choose or drop a video first.');
      fd.append('file', state.file, state.file.name);
      fd.append('visual_analytics', $('visual').checked ? 'true' : 'false');
      return { path: '/api/analyze-video', body: fd };
    }
    var avatar = $('avatar-id').value.trim();
    if (avatar) fd.append('video_id', avatar);
    else if (state.file) fd.append('file', state.file, state.file.name);
    else throw new Error('Choose a video, or enter a registered avatar id.');
    var vg = $('voice-generator').value;
    fd.append('voice_generator', vg);
    var desc = $('description').value.trim();
    if (desc && vg !== '2') fd.append('description', desc);
    if (vg === '1' && $('voice-id').value.trim()) fd.append('voice_id', $('voice-id').value.trim());
    if (vg === '2') {
      var audio = $('audio').files[0];
      if (!audio) throw new Error('Voice generator 2 uses your audio: choose an audio file.');
      fd.append('audio', audio, audio.name);
    }
    fd.append('blur_background', $('blur').checked ? 'true' : 'false');
    fd.append('lip_sync_correction', $('lip-sync').checked ? 'true' : 'false');
    fd.append('eye_contact_correction', $('eye-contact').checked ? 'true' : 'false');
    return { path: '/api/process-video', body: fd };
  }

  // ---- progress and errors ---------------------------------------------------
  function setBar(name, pct) {
    var p = Math.max(0, Math.min(100, pct));
    $(name + '-progress').value = p;
    $(name + '-pct').textContent = Math.round(p) + '%';
  }
  function say(text) { $('status-text').textContent = text; }
  function showError(err) {
    var box = $('error');
    box.hidden = false;
    box.textContent = '';
    var strong = document.createElement('strong');
    strong.textContent = err.code ? err.code + (err.status ? ' (HTTP ' + err.status + ')' : '') + ': ' : 'Error: ';
    box.appendChild(strong);
    box.appendChild(document.createTextNode(err.message || String(err)));
    if (err.field) box.appendChild(document.createTextNode(' — field "' + err.field + '"'));
    if (err.requestId) {
      var rid = document.createElement('div');
      rid.className = 'hint';
      rid.textContent = 'request_id ' + err.requestId;
      box.appendChild(rid);
    }
  }
  function apiError(status, text, requestId) {
    var body = null;
    try { body = JSON.parse(text); } catch (e) {}
    var e = (body && body.error) || {};
    return { code: e.code || 'http_' + status, status: status, message: e.message || text || 'request failed', field: e.field || null, requestId: (body && body.request_id) || requestId };
  }
  function formatBytes(n) { return n >= 1e6 ? (n / 1e6).toFixed(1) + ' MB' : n >= 1e3 ? Math.round(n / 1e3) + ' kB' : n + ' B'; }

  // ---- upload (XHR for upload progress) --------------------------------------
  function upload(path, body) {
    return new Promise(function (resolve, reject) {
      var xhr = new XMLHttpRequest();
      xhr.open('POST', path);
      xhr.setRequestHeader('X-API-Key', apiKey());
      xhr.responseType = 'text';
      xhr.upload.onprogress = function (e) {
        if (e.lengthComputable) {
          setBar('upload', (e.loaded / e.total) * 100);
          say('Uploading… ' + formatBytes(e.loaded) + ' of ' + formatBytes(e.total));
        }
      };
      xhr.onload = function () {
        if (xhr.status >= 200 && xhr.status < 300) { setBar('upload', 100); resolve(JSON.parse(xhr.responseText)); }
        else reject(apiError(xhr.status, xhr.responseText, xhr.getResponseHeader('X-Request-Id')));
      };
      xhr.onerror = function () { reject({ code: 'network_error', message: 'The upload could not reach the service.' }); };
      xhr.send(body);
    });
  }

  // ---- polling ---------------------------------------------------------------
  function getStatus(id) {
    return fetch('/api/status/' + encodeURIComponent(id), { headers: { 'X-API-Key': apiKey(), Accept: 'application/json' }, cache: 'no-store' }).then(function (res) {
      return res.text().then(function (text) {
        if (!res.ok) throw apiError(res.status, text, res.headers.get('X-Request-Id'));
        return JSON.parse(text);
      });
    });
  }
  function poll(id) {
    var delay = 700, last = -1, failures = 0;
    return new Promise(function (resolve, reject) {
      function tick() {
        getStatus(id).then(function (s) {
          failures = 0;
          setBar('job', s.progress || 0);
          say('Job ' + id + ': ' + s.status + ' — ' + (s.progress || 0).toFixed(0) + '%');
          if (s.status === 'completed') return resolve(s);
          if (s.status === 'failed') return reject({ code: 'job_failed', message: s.error_message || 'The job failed.' });
          if (s.status === 'not_found') return reject({ code: 'not_found', message: 'The service does not know this job.' });
          delay = s.progress === last ? Math.min(delay * 1.5, 8000) : 700;
          last = s.progress;
          state.polling = setTimeout(tick, delay);
        }, function (err) {
          if (++failures > 4 || (err.status && err.status < 500 && err.status !== 429)) return reject(err);
          state.polling = setTimeout(tick, Math.min(delay * 2, 8000));
        });
      }
      tick();
    });
  }

  // ---- results ---------------------------------------------------------------
  var player = $('player');
  function showResults(kind, s) {
    $('results-panel').hidden = false;
    var results = $('results');
    var dl = $('download');
    if (kind === 'analyze') {
      if (state.objectUrl) URL.revokeObjectURL(state.objectUrl);
      state.objectUrl = state.file ? URL.createObjectURL(state.file) : null;
      if (state.objectUrl) player.src = state.objectUrl;
      results.innerHTML = ResultsRenderer.renderResults(s.result, { durationSec: player.duration || undefined });
      dl.classList.add('hidden');
      wireTimeline();
    } else {
      player.src = s.download_url;
      results.innerHTML = '';
      dl.classList.remove('hidden');
      dl.textContent = '';
      var a = document.createElement('a');
      a.href = s.download_url;
      a.textContent = 'Download the processed video';
      a.setAttribute('download', '');
      dl.appendChild(a);
      var note = document.createElement('span');
      note.className = 'hint';
      note.textContent = ' (link valid for 24 hours)';
      dl.appendChild(note);
      showProcessingReport(results, s.processing_report);
    }
    $('h-results').focus();
  }

  // What the render really did: applied options, the voice that spoke, and the notes on anything that was not applied.
  function showProcessingReport(into, report) {
    if (!report) return;
    var list = document.createElement('ul');
    list.id = 'processing-report';
    var items = ResultsRenderer.processingReportItems(report);
    items.forEach(function (text) {
      var li = document.createElement('li');
      li.textContent = text;
      list.appendChild(li);
    });
    into.appendChild(list);
  }

  function wireTimeline() {
    var svg = document.getElementById('timeline');
    var words = Array.prototype.slice.call(document.querySelectorAll('#transcript .w'));
    function seek(t) {
      if (!isFinite(t)) return;
      try { player.currentTime = t; } catch (e) {}
      movePlayhead(t);
    }
    $('results').addEventListener('click', function (e) {
      var el = e.target.closest ? e.target.closest('.seek') : null;
      if (el && el.closest('#transcript')) { seek(parseFloat(el.getAttribute('data-t'))); return; }
      if (svg && e.target.closest && e.target.closest('#timeline')) {
        var rect = svg.getBoundingClientRect();
        var vb = svg.viewBox.baseVal;
        var x = ((e.clientX - rect.left) / rect.width) * vb.width;
        var x0 = parseFloat(svg.getAttribute('data-x0')), x1 = parseFloat(svg.getAttribute('data-x1'));
        var d = parseFloat(svg.getAttribute('data-duration'));
        seek(Math.max(0, Math.min(d, ((x - x0) / (x1 - x0)) * d)));
      }
    });
    var current = null;
    function movePlayhead(t) {
      if (svg) {
        var x0 = parseFloat(svg.getAttribute('data-x0')), x1 = parseFloat(svg.getAttribute('data-x1'));
        var d = parseFloat(svg.getAttribute('data-duration')) || 1;
        var x = x0 + (Math.max(0, Math.min(d, t)) / d) * (x1 - x0);
        var ph = document.getElementById('playhead');
        ph.setAttribute('x1', x);
        ph.setAttribute('x2', x);
      }
      var next = null;
      for (var i = 0; i < words.length; i++) {
        if (parseFloat(words[i].getAttribute('data-t')) <= t) next = words[i]; else break;
      }
      if (next !== current) {
        if (current) current.classList.remove('current');
        if (next) next.classList.add('current');
        current = next;
      }
    }
    player.ontimeupdate = function () { movePlayhead(player.currentTime); };
  }

  // ---- start -----------------------------------------------------------------
  $('job-form').addEventListener('submit', function (e) {
    e.preventDefault();
    $('error').hidden = true;
    if (!apiKey()) { showError({ code: 'unauthorized', message: 'Enter your API key first.' }); $('progress-panel').hidden = false; keyInput.focus(); return; }
    var req;
    try { req = buildForm(); } catch (err) { $('progress-panel').hidden = false; showError({ message: err.message }); return; }
    var kind = mode();
    clearTimeout(state.polling);
    $('progress-panel').hidden = false;
    $('results-panel').hidden = true;
    setBar('upload', 0); setBar('job', 0);
    $('start').disabled = true;
    say('Uploading…');
    upload(req.path, req.body).then(function (created) {
      say('Uploaded. Job ' + created.video_id + ' is queued.');
      return poll(created.video_id);
    }).then(function (s) {
      say('Done: the job is completed.');
      showResults(kind, s);
    }).catch(function (err) {
      say('Stopped.');
      showError(err);
    }).then(function () { $('start').disabled = false; });
  });
})();
`;
