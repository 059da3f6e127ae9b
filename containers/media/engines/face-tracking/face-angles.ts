/**
 * @module containers/media/engines/face-tracking/face-angles
 * Head angles from a face mesh, the way Human computes them (`src/face/angles.ts` of
 * @vladmandic/human, MIT): axes through the forehead–chin (10, 152) and cheek–cheek (234, 454)
 * points, made orthogonal, read as Euler angles. For meshes that come from elsewhere (MediaPipe's
 * native face mesh), so the gaze engine gets the same convention: yaw > 0 = head turned to the
 * person's right, pitch > 0 = down, radians.
 */
import type { MeshPoint } from './face-track.js';

type Vec = [number, number, number];

const normalize = (v: Vec): Vec => {
  const n = Math.hypot(v[0], v[1], v[2]) || 1;
  return [v[0] / n, v[1] / n, v[2] / n];
};
const sub = (a: Vec, b: Vec): Vec => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: Vec, b: Vec): Vec => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];

/**
 * @param mesh 468+ points in pixels, z in pixels of the same scale as x.
 * @param depthScale multiplies z before the axes are built: Human's own meshes carry z in units
 *   of its 192-px crop, a flatter scale than x and y; `HUMAN_DEPTH_SCALE` reproduces its angles.
 */
export function faceAngles(mesh: MeshPoint[], depthScale = 1): { roll: number; yaw: number; pitch: number } {
  const point = (i: number): Vec => [mesh[i][0], mesh[i][1], (mesh[i][2] ?? 0) * depthScale];
  const yAxis = normalize(sub(point(152), point(10)));
  let xAxis = normalize(sub(point(454), point(234)));
  const zAxis = normalize(cross(xAxis, yAxis));
  xAxis = cross(yAxis, zAxis);
  // Row-major [x; y; z] read as YZX Euler angles (geometrictools.com EulerAngles.pdf), as Human does.
  const [r00, r10, r11, r12, r20] = [xAxis[0], yAxis[0], yAxis[1], yAxis[2], zAxis[0]];
  const thetaZ = Math.atan2(r10, Math.sqrt(r00 * r00 + r20 * r20));
  const thetaY = Math.atan2(-r20, r00);
  const thetaX = Math.atan2(-r12, r11);
  return { pitch: -thetaX || 0, yaw: -thetaY || 0, roll: -thetaZ || 0 };
}
