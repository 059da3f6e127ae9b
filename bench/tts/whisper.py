"""Transcribes WAV files with faster-whisper directly (the bench's second recogniser, used while
the service's default is still pocketsphinx). Usage: python whisper.py MODEL_DIR a.wav b.wav ...
Prints one JSON object per file: {"path": ..., "text": ...}."""
import json
import sys

from faster_whisper import WhisperModel

model = WhisperModel(sys.argv[1], device="cpu", compute_type="int8", cpu_threads=2)
for path in sys.argv[2:]:
    segments, _ = model.transcribe(path, language="en", beam_size=5)
    print(json.dumps({"path": path, "text": " ".join(s.text.strip() for s in segments)}), flush=True)
