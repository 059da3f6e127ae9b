"""The bare model's own time, for bench/speech/speed.ts: Whisper base as faster-whisper runs it
out of the box on a whole file (its defaults: beam 5, the language detected on the first 30 s,
OpenAI's temperature ladder, each window conditioned on the text before it, no VAD, int8 on the
CPU with CTranslate2's default threads). Audio is decoded before the clock starts and the model is
warmed on the file's first 2 s, as the service's engine is warm and gets PCM.

  python bare_whisper.py MODEL_DIR FILE  ->  one JSON line:
  {"wall_s": 5.1, "cpu_s": 9.8, "language": "de", "language_probability": 0.99, "words": 150}
"""

import json
import sys
import time

from faster_whisper import WhisperModel
from faster_whisper.audio import decode_audio

SAMPLE_RATE = 16_000


def main():
    model_dir, path = sys.argv[1], sys.argv[2]
    model = WhisperModel(model_dir, device="cpu", compute_type="int8")
    audio = decode_audio(path, sampling_rate=SAMPLE_RATE)
    list(model.transcribe(audio[: 2 * SAMPLE_RATE])[0])
    wall, cpu = time.perf_counter(), time.process_time()
    segments, info = model.transcribe(audio)
    words = sum(len(s.text.split()) for s in segments)
    print(
        json.dumps(
            {
                "wall_s": round(time.perf_counter() - wall, 2),
                "cpu_s": round(time.process_time() - cpu, 2),
                "language": info.language,
                "language_probability": round(info.language_probability, 3),
                "words": words,
            }
        )
    )


if __name__ == "__main__":
    main()
