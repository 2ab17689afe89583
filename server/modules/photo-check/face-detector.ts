// The face detector behind the photo check: @vladmandic/face-api (SSD
// MobileNet v1 for the faces, the 68-point landmark net for the eyes and the
// chin) on TensorFlow.js's WebAssembly backend. The model weights and the
// .wasm binaries ship inside the npm packages and are read from node_modules:
// nothing is downloaded at run time, nothing native is built.
//
// Loaded once, on the first check (about 0.3 s); detections run one at a time
// (the backend is single-threaded, and a queue keeps two uploads from
// interleaving their tensors).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

export interface Point {
  x: number;
  y: number;
}

export interface DetectedFace {
  score: number;
  box: { x: number; y: number; width: number; height: number };
  /** The 68 landmarks (iBUG order: 0–16 jaw, 36–41 right eye, 42–47 left eye, 8 chin), in image pixels. */
  landmarks: Point[];
}

/** What the check needs from a detector (the tests may hand in their own). */
export type FaceDetector = (rgb: Buffer, width: number, height: number) => Promise<DetectedFace[]>;

let loading: Promise<{ tf: any; faceapi: any }> | null = null;

function load(): Promise<{ tf: any; faceapi: any }> {
  loading ??= (async () => {
    // The WebAssembly module adds process-wide handlers that rethrow every unhandled rejection and
    // uncaught exception (printing its whole source); the server keeps its own, so they are removed.
    const before = { uncaughtException: process.listeners('uncaughtException'), unhandledRejection: process.listeners('unhandledRejection') };
    const tf = require('@tensorflow/tfjs');
    const wasm = require('@tensorflow/tfjs-backend-wasm');
    const wasmDir = join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');
    wasm.setWasmPaths(`${wasmDir}/`);
    await tf.setBackend('wasm');
    await tf.ready();
    for (const listener of process.listeners('uncaughtException')) {
      if (!before.uncaughtException.includes(listener)) process.removeListener('uncaughtException', listener);
    }
    for (const listener of process.listeners('unhandledRejection')) {
      if (!before.unhandledRejection.includes(listener)) process.removeListener('unhandledRejection', listener);
    }
    const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');
    const models = join(dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');
    await faceapi.nets.ssdMobilenetv1.loadFromDisk(models);
    await faceapi.nets.faceLandmark68Net.loadFromDisk(models);
    return { tf, faceapi };
  })();
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

let queue: Promise<unknown> = Promise.resolve();

/** Faces with a score of at least 0.5, in the given RGB image (3 bytes a pixel). */
export const detectFaces: FaceDetector = (rgb, width, height) => {
  const run = queue.then(async () => {
    const { tf, faceapi } = await load();
    const tensor = tf.tensor3d(new Uint8Array(rgb.buffer, rgb.byteOffset, rgb.byteLength), [height, width, 3], 'int32');
    try {
      const results: any[] = await faceapi
        .detectAllFaces(tensor, new faceapi.SsdMobilenetv1Options({ minConfidence: 0.5, maxResults: 10 }))
        .withFaceLandmarks();
      return results.map((r): DetectedFace => ({
        score: r.detection.score,
        box: { x: r.detection.box.x, y: r.detection.box.y, width: r.detection.box.width, height: r.detection.box.height },
        landmarks: r.landmarks.positions.map((p: Point) => ({ x: p.x, y: p.y })),
      }));
    } finally {
      tensor.dispose();
    }
  });
  queue = run.catch(() => undefined);
  return run;
};

/** Loads the models ahead of the first upload (the server calls it after listening; failures are the first check's). */
export function warmUpDetector(): Promise<void> {
  return load().then(
    () => undefined,
    () => undefined,
  );
}
