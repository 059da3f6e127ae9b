"""MediaPipe's native face mesh and selfie segmenter as a child process of the media container.

Narrow contract, one mode per process, requests answered strictly in order:

  vision_worker.py segment
      stdin:  a line naming the model, `square` (input 256x256) or `landscape` (256 wide, 144
              high: for wide video, at a little over half the cost), then RGB images of the
              model's input size (width*height*3 bytes)
      stdout: one person-probability map per image, width*height bytes (0..255)
  vision_worker.py face-mesh | face-mesh-eyes
      stdin:  per frame a header of two little-endian uint32 (width, height), then width*height*3
              RGB bytes; frames of one process are consecutive video frames (the mesh tracks)
      stdout: per frame 1 + 478*3 little-endian float32: a flag, then 478 points (x and y in
              pixels, z in pixels of the same scale): flag 1 = 478 points with irises
              (face-mesh-eyes), 2 = the first 468 only, 0 = no face (zeros)

The models are the ones the `mediapipe` 0.10.21 wheel ships (install_models.py checks their
SHA-256 against MediaPipe's own published pins). Only the solution graphs are imported: the
package's top-level `__init__` would import cv2 and matplotlib for drawing helpers we never use.
"""
import importlib.util
import os
import struct
import sys
import types

os.environ.setdefault("GLOG_minloglevel", "2")

import numpy as np


def package_shell(name: str) -> None:
    """Registers a package without running its __init__, so its submodules import alone."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"vision_worker: {name} is not installed")
    module = types.ModuleType(name)
    module.__path__ = list(spec.submodule_search_locations)
    sys.modules[name] = module


package_shell("mediapipe")
import mediapipe.python  # noqa: E402  (the framework bindings)

package_shell("mediapipe.python.solutions")
from mediapipe.python.solutions import face_mesh, selfie_segmentation  # noqa: E402

MESH_POINTS = 478
# Input (height, width) and MediaPipe's model_selection of each selfie segmentation model.
SEGMENT_MODELS = {"square": ((256, 256), 0), "landscape": ((144, 256), 1)}
# A frame larger than 8K would be a caller bug, not a video: refuse it rather than allocate it.
MAX_SIDE = 8192


def read_exactly(stream, view: memoryview) -> bool:
    """Fills `view` from `stream`; False at a clean end of input before the first byte."""
    got = 0
    while got < len(view):
        n = stream.readinto(view[got:])
        if not n:
            if got == 0:
                return False
            raise SystemExit("vision_worker: input ended inside a record")
        got += n
    return True


def serve_segment(stdin, stdout) -> None:
    name = stdin.readline(64).decode("ascii", "replace").strip()
    if not name:
        return
    if name not in SEGMENT_MODELS:
        raise SystemExit(f"vision_worker: unknown segmentation model {name!r}")
    (height, width), selection = SEGMENT_MODELS[name]
    segmenter = selfie_segmentation.SelfieSegmentation(model_selection=selection)
    buffer = bytearray(width * height * 3)
    while read_exactly(stdin, memoryview(buffer)):
        rgb = np.frombuffer(buffer, np.uint8).reshape(height, width, 3)
        mask = segmenter.process(rgb).segmentation_mask
        stdout.write(np.clip(np.rint(mask * 255), 0, 255).astype(np.uint8).tobytes())
        stdout.flush()


def landmarks_px(result, width: int, height: int):
    """The first face's points in pixels (z in pixels of x's scale), or None."""
    faces = result.multi_face_landmarks
    if not faces:
        return None
    return np.array([(p.x * width, p.y * height, p.z * width) for p in faces[0].landmark], np.float32)


def serve_face_mesh(stdin, stdout, eyes: bool) -> None:
    """Mouth (and head) points from the 468-point mesh, the model family of Human's face mesh, which
    the mouth driver and its measure were tuned on. With `eyes`, the lid contours and irises come
    from the attention mesh (478 points), which refines them: each consumer gets the better model."""
    options = dict(static_image_mode=False, max_num_faces=1,
                   min_detection_confidence=0.5, min_tracking_confidence=0.5)
    base = face_mesh.FaceMesh(refine_landmarks=False, **options)
    attention = face_mesh.FaceMesh(refine_landmarks=True, **options) if eyes else None
    eye_ids = sorted({i for pair in face_mesh.FACEMESH_LEFT_EYE | face_mesh.FACEMESH_RIGHT_EYE for i in pair})
    header = bytearray(8)
    while read_exactly(stdin, memoryview(header)):
        width, height = struct.unpack("<II", header)
        if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
            raise SystemExit(f"vision_worker: bad frame size {width}x{height}")
        frame = bytearray(width * height * 3)
        if not read_exactly(stdin, memoryview(frame)):
            raise SystemExit("vision_worker: input ended inside a record")
        rgb = np.frombuffer(frame, np.uint8).reshape(height, width, 3)
        points = np.zeros((MESH_POINTS, 3), np.float32)
        mesh = landmarks_px(base.process(rgb), width, height)
        refined = landmarks_px(attention.process(rgb), width, height) if attention else None
        if mesh is None and refined is None:
            flag = 0.0
        elif refined is None:
            flag, points[:468] = 2.0, mesh[:468]
        else:
            flag, points[:] = 1.0, refined[:MESH_POINTS]
            if mesh is not None:
                keep = points[eye_ids]
                points[:468] = mesh[:468]
                points[eye_ids] = keep
        stdout.write(struct.pack("<f", flag) + points.astype("<f4").tobytes())
        stdout.flush()


if __name__ == "__main__":
    modes = {
        "segment": serve_segment,
        "face-mesh": lambda i, o: serve_face_mesh(i, o, eyes=False),
        "face-mesh-eyes": lambda i, o: serve_face_mesh(i, o, eyes=True),
    }
    if len(sys.argv) != 2 or sys.argv[1] not in modes:
        raise SystemExit(f"usage: vision_worker.py {'|'.join(modes)}")
    modes[sys.argv[1]](sys.stdin.buffer, sys.stdout.buffer)
