import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;
const { FLOAT, FLOAT16 } = onnx.TensorProto.DataType;

/** Half-precision bits of a float (round to nearest; enough for test constants). */
function toHalf(value: number): number {
  const floats = new Float32Array([value]);
  const bits = new Uint32Array(floats.buffer)[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15;
  const mantissa = (bits >>> 13) & 0x3ff;
  if (exponent <= 0) return sign;
  if (exponent >= 31) return sign | 0x7c00;
  return sign | (exponent << 10) | mantissa;
}

function tensor(name: string, values: number[], dims: number[], float16: boolean): onnxProto.onnx.ITensorProto {
  const raw = float16 ? new Uint8Array(Uint16Array.from(values, toHalf).buffer) : new Uint8Array(Float32Array.from(values).buffer);
  return { name, dims, dataType: float16 ? FLOAT16 : FLOAT, rawData: raw };
}

function valueInfo(name: string, dims: number[]): onnxProto.onnx.IValueInfoProto {
  return { name, type: { tensorType: { elemType: FLOAT, shape: { dim: dims.map((dimValue) => ({ dimValue })) } } } };
}

/**
 * A real ONNX graph small enough to build in a test: a "salient-object model" that sees red.
 * mask = sigmoid(gain · (R − G) + bias), as a 1×1 convolution over the normalised input, so it
 * has the shape of ISNet (1×3×S×S in, 1×1×S×S out). With `float16` its weights are stored as
 * half floats behind casts, as IMG.LY ships ISNet.
 */
export function redSaliencyGraph(options: { size?: number; float16?: boolean; gain?: number; bias?: number } = {}): Uint8Array {
  const size = options.size ?? 64;
  const float16 = options.float16 ?? false;
  const gain = options.gain ?? 40;
  const weights = tensor('weights', [gain, -gain, 0], [1, 3, 1, 1], float16);
  const bias = tensor('bias', [options.bias ?? -4], [1], float16);
  const nodes: onnxProto.onnx.INodeProto[] = float16
    ? [
        { opType: 'Cast', input: ['input'], output: ['input16'], attribute: [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: FLOAT16 }] },
        { opType: 'Conv', input: ['input16', 'weights', 'bias'], output: ['logits16'] },
        { opType: 'Cast', input: ['logits16'], output: ['logits'], attribute: [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: FLOAT }] },
        { opType: 'Sigmoid', input: ['logits'], output: ['output'] },
      ]
    : [
        { opType: 'Conv', input: ['input', 'weights', 'bias'], output: ['logits'] },
        { opType: 'Sigmoid', input: ['logits'], output: ['output'] },
      ];
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 15 }],
    producerName: 'prodshot-test',
    graph: {
      name: 'red-saliency',
      node: nodes,
      initializer: [weights, bias],
      input: [valueInfo('input', [1, 3, size, size])],
      output: [valueInfo('output', [1, 1, size, size])],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

/** A graph with the wrong shape for a cutout model: two inputs. */
export function twoInputGraph(): Uint8Array {
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: '', version: 15 }],
    graph: {
      name: 'sum',
      node: [{ opType: 'Add', input: ['a', 'b'], output: ['output'] }],
      input: [valueInfo('a', [1, 3, 64, 64]), valueInfo('b', [1, 3, 64, 64])],
      output: [valueInfo('output', [1, 3, 64, 64])],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}
