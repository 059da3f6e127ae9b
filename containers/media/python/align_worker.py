"""Forced-alignment decoder of the media container: SoundSwallower (pocketsphinx's aligner), native.

One warm process, driven by containers/media/engines/asr/align-decoder.ts, one request at a time.
The search itself (which words, fillers and settings) is planned on the TypeScript side
(align.ts, align-fillers.ts); this process only owns the decoder and its dictionary. It is the
same C library and en-us model as the npm package's WebAssembly build, with the same answers, for
less CPU (docs/benchmarks.md, "The aligner, native").

  stdout, once at start:  {"ready": true, "load_ms": 250}
  stdin, a request line:  {"id": 1, "op": "lookup", "words": ["hello", "zyx"]}
  stdout:                 {"id": 1, "prons": ["HH AH L OW", null]}   (null: not in the dictionary)
  stdin:                  {"id": 2, "op": "add", "words": [["dashwood", "D AE SH W UH D"]]}
  stdout:                 {"id": 2, "refused": []}        (the words refused: a phone the model lacks)
  stdin:                  {"id": 3, "op": "align", "samples": 16000, "config": {"beam": 1e-48, ...},
                           "text": "words as spoken"}     (or "grammar": "<a JSGF grammar>")
                          followed by exactly 2 * samples bytes: 16 kHz mono s16le PCM
  stdout:                 {"id": 3, "w": [{"t": "hello", "b": 0.12, "d": 0.3, "p": 0.97}, ...]}
  stdout, on a failure:   {"id": 3, "error": "plain message"}

"w" is SoundSwallower's word segmentation (its `dumps()`): text, begin and duration in seconds,
and probability, silences and fillers included; empty when the search ended outside its grammar.
"""

import json
import sys
import time

# Settings a request may change; anything else in "config" is refused.
CONFIG_KEYS = {"beam", "pbeam", "wbeam", "fsgusefiller"}


def emit(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def read_exactly(stream, n):
    chunks = []
    while n > 0:
        chunk = stream.read(n)
        if not chunk:
            raise EOFError("the request's PCM ended early")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def align(decoder, req, pcm):
    for key, value in (req.get("config") or {}).items():
        if key not in CONFIG_KEYS:
            raise ValueError(f"unknown decoder setting {key}")
        decoder.config[key] = value
    if "grammar" in req:
        decoder.set_jsgf_string(req["grammar"])
    else:
        decoder.set_align_text(req["text"])
    decoder.start_utt()
    decoder.process_raw(pcm, full_utt=True)
    decoder.end_utt()
    return json.loads(decoder.dumps()).get("w", [])


def serve(decoder, req, stream):
    op = req.get("op")
    # The PCM is read before anything can fail, so the next request line is where it should be.
    pcm = read_exactly(stream, 2 * int(req.get("samples", 0))) if op == "align" else b""
    if op == "lookup":
        return {"prons": [decoder.lookup_word(word) for word in req["words"]]}
    if op == "add":
        refused = []
        for word, pron in req["words"]:
            try:
                decoder.add_word(word, pron)
            except RuntimeError:
                refused.append(word)
        return {"refused": refused}
    if op == "align":
        return {"w": align(decoder, req, pcm)}
    raise ValueError(f"unknown op {op}")


def main():
    t0 = time.time()
    try:
        from soundswallower import Decoder, get_model_path

        decoder = Decoder(
            hmm=get_model_path("en-us"), dict=get_model_path("en-us/dict.txt"), samprate=16000, loglevel="FATAL"
        )
    except Exception as err:  # noqa: BLE001 - reported to the caller as a plain message
        emit({"ready": False, "error": f"could not load the aligner: {err}"})
        return 1
    emit({"ready": True, "load_ms": round((time.time() - t0) * 1000)})
    stream = sys.stdin.buffer
    while True:
        line = stream.readline()
        if not line:
            return 0
        if not line.strip():
            continue
        rid = None
        try:
            req = json.loads(line)
            rid = req.get("id")
            emit({"id": rid, **serve(decoder, req, stream)})
        except EOFError:
            return 0
        except Exception as err:  # noqa: BLE001 - one bad request must not kill the warm process
            emit({"id": rid, "error": f"{type(err).__name__}: {err}"})


if __name__ == "__main__":
    sys.exit(main())
