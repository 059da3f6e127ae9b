"""Whisper (faster-whisper / CTranslate2) runner of the media container.

One warm process per engine, driven by containers/media/engines/asr/faster-whisper.ts over
JSON lines (one object per line, UTF-8). ASR_WORKERS requests (default 2) are decoded at once,
each on one CPU thread (CTranslate2 num_workers, cpu_threads=1); lines of concurrent requests
interleave, each carrying its request's id. Two single-thread decodes of the 60 s gate clip took
3.3-3.8 s wall and 5.5-5.8 CPU-s, one two-thread decode at a time 5.6-6.2 s and 7.7-8.1 CPU-s
(a beam step is too small to share between threads):

  stdout, once at start:  {"ready": true, "model": "<dir name>", "load_ms": 1800}
  stdin, a request:       {"id": 1, "pcm": "/tmp/x/audio.raw", "utterances": [{"start": 0.7, "end": 9.3}],
                           "beam_size": 1, "initial_prompt": "...", "word_timestamps": true,
                           "temperature": [0.0], "max_tokens_per_sec": 12}
  stdout, per utterance:  {"id": 1, "utterance": 0, "start": 0.7, "end": 9.3, "segments": [
                             {"text": " Hello.", "avg_logprob": -0.2, "no_speech_prob": 0.01,
                              "compression_ratio": 1.1, "temperature": 0.0, "window_start": 0.7,
                              "words": [{"word": " Hello.", "start": 0.9, "end": 1.3, "probability": 0.98}]}]}
  stdout, at the end:     {"id": 1, "done": true, "peak_rss_bytes": 300000000, "encoder_passes": 1}
  stdout, on a failure:   {"id": 1, "error": "plain message"}

A scan request gets, per utterance, "scan": the words of a greedy decode with the request's
prompt, each with the probability Whisper gave a hesitation sound ("um", "uh", ...) just before
it (1.0 where that decode wrote one). It is a request of its own, not part of the decode's, so
that the two decodes of an utterance can run at once on two slots; it encodes the window as the
decode does, so once either has encoded it (EncoderCache) the other reads it again:

  stdin:   {"id": 4, "scan": true, "pcm": "/tmp/x/audio.raw", "utterances": [{"start": 0.7, "end": 9.3}],
            "language": "en", "initial_prompt": "...", "max_tokens_per_sec": 12}
  stdout:  {"id": 4, "utterance": 0, "start": 0.7, "end": 9.3, "scan": [{"word": " Hello.", "hesitation": 0.03}, ...]}
  stdout:  {"id": 4, "done": true, "peak_rss_bytes": 300000000, "encoder_passes": 0}

A decode request with "utterance_language": true also gets, per utterance, the language Whisper
hears in it: its language head read on the encoder output the decode already computed (one
decoder step, no other encode), the likeliest CANDIDATES:

  stdout, per utterance:  {..., "heard": [["de", 0.97], ["en", 0.02], ["nl", 0.0]]}

A decode request's "language" (ISO 639-1, e.g. "de") is the language Whisper transcribes in; the
task is always "transcribe", never "translate". A language detection request reads the speech
of its utterances, concatenated, in windows of 30 s (at most "windows" of them, spread over the
speech), and averages Whisper's language probabilities over them, weighted by seconds of speech.
With "own_window" (an utterance {"start", "end"}) the first window is that utterance alone,
encoded as its decode encodes it, so that decode reads the encoder output again (EncoderCache);
"utterances" are then the speech after it:

  stdin:   {"id": 2, "detect": true, "pcm": "/tmp/x/audio.raw", "utterances": [...], "windows": 3,
            "own_window": {"start": 0.3, "end": 27.9}}
  stdout:  {"id": 2, "language": "de", "language_probability": 0.97, "speech_sec": 41.2,
            "candidates": [["de", 0.97], ["nl", 0.01], ["en", 0.01]],
            "windows": [{"language": "de", "probability": 0.98, "speech_sec": 30.0}, ...]}
  stdout:  {"id": 2, "done": true, "peak_rss_bytes": 300000000, "encoder_passes": 1}

An encode request only encodes each utterance's first window as its decode will, for a later
decode of the same file to read again (sent while the language is detected):

  stdin:   {"id": 3, "encode": true, "pcm": "/tmp/x/audio.raw", "utterances": [{"start": 28.1, "end": 55.6}]}
  stdout:  {"id": 3, "done": true, "peak_rss_bytes": 300000000, "encoder_passes": 1}

"encoder_passes" counts the windows the request encoded; a window the same file had encoded
lately is read again instead (EncoderCache), as the same features give the same output.

"temperature" is the ladder tried in turn while a decode compresses like a loop (gzip ratio
> 2.4); default OpenAI's [0.0, 0.2, ..., 1.0]. The engine asks for [0.0] and decides itself
whether to decode a loop again, with "repetition_penalty" (default 1: none; CTranslate2's
penalty on tokens already generated) rather than sampling. "words" is empty unless
word_timestamps is true, except for a segment that compresses like a loop: its words then carry Whisper's cross-attention times
(one alignment pass over the utterance, no new decode) so the caller can tell speech that
really repeats (the repeats spread over the audio) from a decode stuck in a loop (the repeats
squeezed into a moment). "temperature" of a segment says which step of the ladder wrote it.
"window_start" is where the decode window that wrote the segment began: the utterance's start,
or, when Whisper stopped before the end of the audio, the end of its last word (faster-whisper
then decodes the rest again, and that re-decode of a short tail is where Whisper invents text).
A request's "max_skipped_tail_sec" (default 0: every tail is decoded) leaves such a rest of at
most that many seconds undecoded.

The PCM file is raw s16le 16 kHz mono; only one utterance's samples are read at a time, so
memory does not grow with the audio's duration. Times are seconds from the start of the file.
Decoding is per utterance (VAD speech segments planned by the TypeScript side) with
condition_on_previous_text off: Whisper never sees long silence, and one bad window cannot
seed a repetition loop in the next. Filtering (no-speech, loops) is done by the caller.
"""

import hashlib
import json
import os
import resource
import sys
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor

import numpy as np

SAMPLE_RATE = 16_000
# Bounds on generated tokens per utterance (see transcribe()); 448 is Whisper's context, less the prompt.
# A request's "max_tokens_per_sec" sets the first for its language (the engine's token-density.ts:
# other scripts take more tokens for the same words); without it, English's.
TOKENS_PER_SEC_CAP = 12
MAX_NEW_TOKENS_CAP = 400
# OpenAI's gzip ratio above which a decode is repetitive enough to be a loop.
COMPRESSION_RATIO_THRESHOLD = 2.4
# faster-whisper's defaults for word_timestamps.
PREPEND_PUNCTUATIONS = "\"'“¿([{-"
APPEND_PUNCTUATIONS = "\"'.。,，!！?？:：”)]}、"


def cross_attention_words(model, audio, segment, language):
    """Whisper's own word times (cross-attention DTW, as word_timestamps computes them) of a
    segment decoded without them: one encoder and one alignment pass, seconds from the start of
    the utterance. Only for windows of one segment (≤ 30 s, no timestamps), as the engine sends."""
    from faster_whisper.tokenizer import Tokenizer
    from faster_whisper.transcribe import merge_punctuations

    features, num_frames = window_features(model, audio, as_decoded=True)
    encoder_output = model.encode(features)
    tokenizer = Tokenizer(model.hf_tokenizer, model.model.is_multilingual, task="transcribe", language=language)
    tokens = [t for t in segment.tokens if t < tokenizer.eot]
    [words] = model.find_alignment(tokenizer, [tokens], encoder_output, num_frames)
    # Punctuation joins its word, as word_timestamps does (a lone "," would look like a squeezed word).
    merge_punctuations(words, PREPEND_PUNCTUATIONS, APPEND_PUNCTUATIONS)
    return [Timed(w["word"], float(w["start"]), float(w["end"]), float(w["probability"])) for w in words if w["word"]]


def window_features(model, audio, as_decoded):
    """The features of the first 30 s window of `audio` (shorter audio is padded) and how many
    frames hold audio. `as_decoded`: exactly as faster-whisper's transcribe() encodes them (the
    last feature frame left out), so EncoderCache finds them again for the decode."""
    from faster_whisper.audio import pad_or_trim

    features = model.feature_extractor(audio)
    num_frames = min(features.shape[-1] - (1 if as_decoded else 0), model.feature_extractor.nb_max_frames)
    return pad_or_trim(features[:, :num_frames]), num_frames


def encode_window(model, audio, as_decoded=False):
    """Whisper's encoder output of the first 30 s window of `audio` (`window_features`)."""
    return model.encode(window_features(model, audio, as_decoded)[0])


class LaterWindowSkipped(Exception):
    """Raised out of faster-whisper's segment generator instead of encoding a later window that
    would hold no more than the request's "max_skipped_tail_sec" of audio."""


class FirstWindow(threading.local):
    """Per decoding thread: the encoder output of the first window encoded since `forget()`, and
    what the next encode of a later window may skip.
    Why: the language head reads the same window as the utterance's decode, and the encoder
    pass is most of what a second look at a short utterance costs. A later window (Whisper
    stopped before the audio did) is a whole encoder pass and decode; when what is left is a
    short tail, the engine drops what Whisper writes there unless it is sure of speech
    (whisper-filter.ts, isDoubtedTail), so a tail of at most `skip_tail_sec` is not decoded."""

    output = None
    # The request's audio file: encoder outputs are reused within it only (EncoderCache); and
    # the windows the request encoded (not found there), for its "done" line.
    scope = None
    encoder_passes = 0
    # Seconds of the utterance's audio, the end of the last segment read, and the longest tail
    # not decoded: set by tail_skipping() while it reads the segments; 0 decodes every tail.
    duration = 0.0
    last_end = 0.0
    skip_tail_sec = 0.0

    def forget(self):
        self.output = None
        self.duration = 0.0
        self.last_end = 0.0
        self.skip_tail_sec = 0.0

    def skips_next_window(self):
        """True when the next encode would be a later window over a tail short enough to skip."""
        return (
            self.output is not None
            and self.skip_tail_sec > 0
            and self.duration - self.last_end <= self.skip_tail_sec
        )


FIRST_WINDOW = FirstWindow()


class EncoderCache:
    """The encoder outputs of the last few windows encoded, each kept for its request's audio file.
    Why: a job decodes some windows more than once (again without the prompt when Whisper skipped
    speech, again when it looped, once per likely language when the detection is unsure, and
    the loop's cross-attention times), and the encoder pass is about half of what a decode costs
    on a 2-core CPU. The same features give the same output, so the words do not change. Keyed by
    the file and a hash of the features: one job never reads another's."""

    def __init__(self, size):
        self._size = size
        self._entries = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def key(scope, features):
        digest = hashlib.blake2b(np.ascontiguousarray(features).tobytes(), digest_size=16).digest()
        return (scope, features.shape, digest)

    def get(self, key):
        with self._lock:
            output = self._entries.get(key)
            if output is not None:
                self._entries.move_to_end(key)
            return output

    def put(self, key, output):
        with self._lock:
            self._entries[key] = output
            self._entries.move_to_end(key)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)


# Windows kept: a few utterances of each of two concurrent jobs, ~3 MB each (1500 x 512 floats);
# the oldest goes first, so a finished job's windows leave as new ones come.
ENCODER_CACHE = EncoderCache(12)


def remember_first_window(model):
    """Makes `model.encode` keep each thread's first encoder output in FIRST_WINDOW, refuse
    (LaterWindowSkipped) a later window of at most FIRST_WINDOW.skip_tail_sec of audio, and
    reuse a window its request's file already had encoded (ENCODER_CACHE)."""
    encode = model.encode

    def encode_and_remember(features):
        if FIRST_WINDOW.skips_next_window():
            raise LaterWindowSkipped()
        key = EncoderCache.key(FIRST_WINDOW.scope, features) if FIRST_WINDOW.scope else None
        output = ENCODER_CACHE.get(key) if key else None
        if output is None:
            output = encode(features)
            FIRST_WINDOW.encoder_passes += 1
            if key:
                ENCODER_CACHE.put(key, output)
        if FIRST_WINDOW.output is None:
            FIRST_WINDOW.output = output
        return output

    model.encode = encode_and_remember
    return model


# Hesitation sounds as Whisper's English transcripts spell them (one token each).
SCAN_HESITATIONS = (" um", " uh", " umm", " uhm", " hmm", " er", " ah", " Um", " Uh", " Umm", " Uhm", " Hmm", " Er", " Ah")


def hesitation_scan(model, encoder_output, language, prompt, max_new):
    """The words of a greedy decode of the utterance, each with the probability Whisper gave a
    hesitation sound anywhere since the word before (the highest at any step). Why: Whisper
    hears most hesitations but, true to its training text, often writes the word after instead:
    the probability tells where, at the cost of a greedy decode of the window `encoder_output`."""
    from faster_whisper.tokenizer import Tokenizer

    tokenizer = Tokenizer(model.hf_tokenizer, model.model.is_multilingual, task="transcribe", language=language)
    ids = [tokenizer.encode(h) for h in SCAN_HESITATIONS]
    sounds = sorted({t[0] for t in ids if len(t) == 1})
    # The prompt as transcribe() builds it from initial_prompt.
    prompt_tokens = model.get_prompt(
        tokenizer, tokenizer.encode(" " + prompt.strip()) if prompt else [], without_timestamps=True
    )
    # CTranslate2's max_length counts the prompt too (as faster-whisper's max_new_tokens does).
    max_length = min(len(prompt_tokens) + max_new, model.max_length)
    [result] = model.model.generate(
        encoder_output, [prompt_tokens], beam_size=1, max_length=max_length, return_logits_vocab=True
    )
    if not result.sequences_ids or not result.logits:
        return []
    words, before = [], 0.0
    for token, logits in zip(result.sequences_ids[0], result.logits[0]):
        if token >= tokenizer.eot:
            break
        if token in sounds:
            before = 1.0  # written: the next word follows a hesitation
            continue
        z = np.asarray(logits, dtype=np.float32).reshape(-1)
        p = np.exp(z - z.max())
        before = max(before, float(p[sounds].sum() / p.sum()))
        text = tokenizer.decode([token])
        if text.startswith(" ") or not words:
            words.append({"word": text, "hesitation": round(before, 4)})
            before = 0.0
        else:
            words[-1]["word"] += text
    return words


class Timed:
    """A word with times, shaped like faster-whisper's Word."""

    def __init__(self, word, start, end, probability):
        self.word, self.start, self.end, self.probability = word, start, end, probability


EMIT_LOCK = threading.Lock()


def emit_done(rid):
    """A request's last line: the process's peak memory and the windows the request encoded."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    emit({"id": rid, "done": True, "peak_rss_bytes": peak, "encoder_passes": FIRST_WINDOW.encoder_passes})


def emit(obj):
    line = json.dumps(obj, separators=(",", ":")) + "\n"
    with EMIT_LOCK:  # concurrent requests write whole lines
        sys.stdout.write(line)
        sys.stdout.flush()


def read_utterance(f, start, end):
    first = max(0, int(round(start * SAMPLE_RATE)))
    last = max(first, int(round(end * SAMPLE_RATE)))
    f.seek(first * 2)
    raw = f.read((last - first) * 2)
    return np.frombuffer(raw, dtype="<i2").astype(np.float32) / 32768.0


WINDOW_SEC = 30
# Candidates reported beside the detected language.
CANDIDATES = 3


def speech_windows(f, utterances, windows):
    """The utterances' speech, concatenated and cut into windows of WINDOW_SEC; at most
    `windows` of them, evenly spread over the speech (first and last included)."""
    chunks, current, filled = [], [], 0
    for u in utterances:
        audio = read_utterance(f, u["start"], u["end"])
        while len(audio) > 0:
            take = min(len(audio), WINDOW_SEC * SAMPLE_RATE - filled)
            current.append(audio[:take])
            filled += take
            audio = audio[take:]
            if filled >= WINDOW_SEC * SAMPLE_RATE:
                chunks.append(np.concatenate(current))
                current, filled = [], 0
    if filled > 0:
        chunks.append(np.concatenate(current))
    if len(chunks) <= windows:
        return chunks
    picks = sorted({round(i * (len(chunks) - 1) / (windows - 1)) for i in range(windows)}) if windows > 1 else [0]
    return [chunks[i] for i in picks]


def language_probabilities(model, encoder_output):
    """Whisper's language head on one window's encoder output: (code, probability), likeliest first."""
    results = model.model.detect_language(encoder_output)[0]
    return [(token[2:-2], float(prob)) for token, prob in results]


def encode_ahead(model, req):
    """Encodes each utterance's first window as its decode will (EncoderCache keeps it). Why: the
    encoder needs no language, so a slot that would wait for the detection encodes the next
    utterances meanwhile, and their decodes then start at the decoder."""
    rid = req.get("id")
    with open(req["pcm"], "rb") as f:
        for u in req.get("utterances", []):
            encode_window(model, read_utterance(f, u["start"], u["end"]), as_decoded=True)
    emit_done(rid)


def detect_language(model, req):
    """Whisper's language probabilities, averaged over windows of the request's speech."""
    rid = req.get("id")
    windows = max(1, int(req.get("windows", 3)))
    own = req.get("own_window")
    with open(req["pcm"], "rb") as f:
        # The first window may be an utterance's own, encoded as its decode will encode it.
        chunks = [(read_utterance(f, own["start"], own["end"]), True)] if own else []
        rest = speech_windows(f, req.get("utterances", []), windows - len(chunks)) if windows > len(chunks) else []
        chunks += [(audio, False) for audio in rest]
    totals, per_window, speech = {}, [], 0.0
    for audio, as_decoded in chunks:
        seconds = len(audio) / SAMPLE_RATE
        probs = language_probabilities(model, encode_window(model, audio, as_decoded))
        for lang, prob in probs:
            totals[lang] = totals.get(lang, 0.0) + prob * seconds
        per_window.append({"language": probs[0][0], "probability": round(probs[0][1], 4), "speech_sec": round(seconds, 2)})
        speech += seconds
    ranked = sorted(((lang, p / speech) for lang, p in totals.items()), key=lambda x: -x[1]) if speech > 0 else []
    emit(
        {
            "id": rid,
            "language": ranked[0][0] if ranked else None,
            "language_probability": round(ranked[0][1], 4) if ranked else None,
            "speech_sec": round(speech, 2),
            "candidates": [[lang, round(p, 4)] for lang, p in ranked[:CANDIDATES]],
            "windows": per_window,
        }
    )
    emit_done(rid)


def tail_skipping(segments, duration, skip_tail_sec):
    """faster-whisper's segments of one utterance, read until a later window would hold no more
    than `skip_tail_sec` of audio (see FirstWindow): the segments before it are all kept. Other
    encodes (a loop's cross-attention times) happen between reads, where no tail is skipped."""
    it = iter(segments)
    FIRST_WINDOW.duration = duration
    while True:
        FIRST_WINDOW.skip_tail_sec = skip_tail_sec
        try:
            s = next(it)
        except (StopIteration, LaterWindowSkipped):
            return
        finally:
            FIRST_WINDOW.skip_tail_sec = 0.0
        FIRST_WINDOW.last_end = s.end
        yield s


def transcribe(model, req):
    rid = req.get("id")
    # None: Whisper detects it per utterance (the engine always sends the file's language).
    language = req.get("language") or None
    beam = int(req.get("beam_size", 1))
    prompt = req.get("initial_prompt") or None
    word_ts = bool(req.get("word_timestamps", True))
    # Greedy first; a decode that compresses like a loop (ratio > 2.4) moves on to the next
    # temperature of the ladder (OpenAI's by default).
    temperature = req.get("temperature", [0.0, 0.2, 0.4, 0.6, 0.8, 1.0])
    skip_tail = max(0.0, float(req.get("max_skipped_tail_sec", 0)))
    # Above 1, tokens already written are made less likely: a decode that looped, decoded again so,
    # breaks its loop without sampling (the same audio gives the same words on every run).
    repetition_penalty = max(1.0, float(req.get("repetition_penalty", 1.0)))
    with open(req["pcm"], "rb") as f:
        for i, u in enumerate(req.get("utterances", [])):
            audio = read_utterance(f, u["start"], u["end"])
            max_new = max_new_tokens(req, u)
            FIRST_WINDOW.forget()
            segments, info = model.transcribe(
                audio,
                language=language,
                # Never "translate": the words are the ones spoken, in their language.
                task="transcribe",
                beam_size=beam,
                best_of=1,
                temperature=temperature,
                initial_prompt=prompt,
                condition_on_previous_text=False,
                word_timestamps=word_ts,
                vad_filter=False,
                without_timestamps=not word_ts,
                max_new_tokens=max_new,
                compression_ratio_threshold=COMPRESSION_RATIO_THRESHOLD,
                repetition_penalty=repetition_penalty,
                # No retry and no skip on low log-probability: the caller filters on the scores.
                log_prob_threshold=None,
                no_speech_threshold=None,
            )
            out = []
            for s in tail_skipping(segments, len(audio) / SAMPLE_RATE, skip_tail):
                timed = s.words or []
                if not timed and s.compression_ratio > COMPRESSION_RATIO_THRESHOLD:
                    timed = cross_attention_words(model, audio, s, info.language)
                words = [
                    {
                        "word": w.word,
                        "start": round(u["start"] + w.start, 3),
                        "end": round(u["start"] + w.end, 3),
                        "probability": round(float(w.probability), 4),
                    }
                    for w in timed
                ]
                out.append(
                    {
                        "text": s.text,
                        "start": round(u["start"] + s.start, 3),
                        "end": round(u["start"] + s.end, 3),
                        "avg_logprob": round(float(s.avg_logprob), 4),
                        "no_speech_prob": round(float(s.no_speech_prob), 4),
                        "compression_ratio": round(float(s.compression_ratio), 4),
                        "temperature": s.temperature,
                        # Where the decode that wrote it began: a later window re-decodes what
                        # Whisper left after it stopped (the caller judges those apart).
                        "window_start": round(u["start"] + s.seek * model.feature_extractor.time_per_frame, 3),
                        "words": words,
                    }
                )
            line = {"id": rid, "utterance": i, "start": u["start"], "end": u["end"], "segments": out}
            # The decode's own first window, read again by the language head.
            first_window = FIRST_WINDOW.output
            if first_window is None and req.get("utterance_language"):
                first_window = encode_window(model, audio)
            if req.get("utterance_language"):
                heard = language_probabilities(model, first_window)[:CANDIDATES]
                line["heard"] = [[lang, round(p, 4)] for lang, p in heard]
            emit(line)
    emit_done(rid)


def max_new_tokens(req, utterance):
    """The cap on tokens a decode of `utterance` writes. A looping decode ("uh, uh, uh, ..." to the
    end of the window) costs seconds; real speech stays far below this many tokens per second
    (Whisper writes ~3-5 in English; the request's "max_tokens_per_sec" is its language's)."""
    tokens_per_sec = max(1.0, float(req.get("max_tokens_per_sec", TOKENS_PER_SEC_CAP)))
    return min(MAX_NEW_TOKENS_CAP, int(tokens_per_sec * (utterance["end"] - utterance["start"])) + 16)


def scan(model, req):
    """The hesitation scan of each utterance (hesitation_scan), its window encoded as its decode
    encodes it (read again from EncoderCache when that decode, or an encode ahead, came first)."""
    rid = req.get("id")
    language = req.get("language") or "en"
    prompt = req.get("initial_prompt") or None
    with open(req["pcm"], "rb") as f:
        for i, u in enumerate(req.get("utterances", [])):
            window = encode_window(model, read_utterance(f, u["start"], u["end"]), as_decoded=True)
            words = hesitation_scan(model, window, language, prompt, max_new_tokens(req, u))
            emit({"id": rid, "utterance": i, "start": u["start"], "end": u["end"], "scan": words})
    emit_done(rid)


def main():
    model_dir = sys.argv[1]
    workers = max(1, int(os.environ.get("ASR_WORKERS", "2") or 2))
    t0 = time.time()
    try:
        from faster_whisper import WhisperModel

        model = remember_first_window(
            WhisperModel(model_dir, device="cpu", compute_type="int8", cpu_threads=1, num_workers=workers)
        )
    except Exception as err:  # noqa: BLE001 - reported to the caller as a plain message
        emit({"ready": False, "error": f"could not load the Whisper model in {model_dir}: {err}"})
        return 1
    emit({"ready": True, "model": os.path.basename(os.path.normpath(model_dir)), "load_ms": round((time.time() - t0) * 1000)})
    pool = ThreadPoolExecutor(max_workers=workers)
    for line in sys.stdin:
        line = line.strip()
        if line:
            pool.submit(serve, model, line)
    pool.shutdown(wait=True)
    return 0


def serve(model, line):
    rid = None
    try:
        req = json.loads(line)
        rid = req.get("id")
        FIRST_WINDOW.scope = req.get("pcm")
        FIRST_WINDOW.encoder_passes = 0
        if req.get("detect"):
            detect_language(model, req)
        elif req.get("encode"):
            encode_ahead(model, req)
        elif req.get("scan"):
            scan(model, req)
        else:
            transcribe(model, req)
    except Exception as err:  # noqa: BLE001 - one bad request must not kill the warm process
        emit({"id": rid, "error": f"{type(err).__name__}: {err}"})
    finally:
        FIRST_WINDOW.scope = None


if __name__ == "__main__":
    sys.exit(main())
